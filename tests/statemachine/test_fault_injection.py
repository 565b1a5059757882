"""Every step of every game's machine survives a transient AWS failure.

Given the same match (game, rule set, players, seed, start of the match clock) played twice by the
same bots on the real ASL, once clean and once with a fault injected into every invocation of the
phase-step function (a throttle or an internal error before an AWS call, or after it was applied
with its reply lost, or the Lambda service failing the invocation itself: see local_stack/aws/faults.py),
Then the faulty match finishes too, with the same record as the clean one (immediate actions
included, as Clubs' puzzles, transfers and peeks) and the same garnets everywhere (players'
balances and guests' purses, emptied into their players' at the end): every retried step was
harmless, nothing was resolved twice, and no garnet moved twice. And every notice (on SNS) and
every mail of a notice (each participant has an address) went out exactly once, as in the clean
run, but for a send applied whose reply was lost: no store can tell that from a send that never
happened, so the retry sends it again, with the same id (and Message-ID), for its receiver to drop.

Every game and rule set the registry lists plays, with its fewest players (`Game.demo`). Faults
strike every invocation (its retry runs clean), at the step's strike points in turn, those only a
resolution reaches first (`every_point`): so a short match (Domino's four phases) meets each kind
of fault that matters at least once, rather than every game every point in every phase.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import UTC, datetime

import pytest

from game_core.aws.sns_notifier import BATCH
from game_core.aws.wiring import ports_from_environment
from game_core.games import registry
from game_core.games.capabilities import ActsAtOnce
from game_core.mail.inbound import parse_message
from game_core.match.engine import guests_per_player
from local_stack.aws.clock import VirtualClock
from local_stack.aws.faults import INVOKE, Fault, StepFaults, every_point
from local_stack.aws.stack import LocalStack
from local_stack.bots.play import bot_matches, seat
from local_stack.bots.runner import MatchRun, run_match, with_addresses

pytestmark = pytest.mark.statemachine

MATCHES = bot_matches("few")
"""Every available game and rule set, with its fewest players (`Game.demo`)."""
START = datetime(2026, 12, 1, tzinfo=UTC)
"""Both runs' match clock starts here: a record holds the moment of each immediate action."""
STEPS = {"advance", "wait"}
UNIQUE = re.compile(r"\.[0-9a-f]{32}@")
"""The unique part of a notice's Message-ID (`addresses.phase_message_id`)."""
SALT = re.compile(r'"salt": "[0-9a-f]{64}"')
"""A receipt's salt as a notice opens it: each run draws its own, so each is made S."""
COMMITMENT = re.compile(r'"commitment": "[0-9a-f]{64}"')
"""A move's commitment as the log seals it, made from its salt: each is made C."""


def play(game_id: str, rule_set: str, players: int, faulty: bool):
    request = {
        "game": game_id,
        "settings": {"rule_set": rule_set},
        "players": [
            with_addresses(seat(f"p{i}", guests_per_player(registry.load(game_id))) | {"garnets": 3})
            for i in range(1, players + 1)
        ],
        "phase_seconds": 600,
        "early_close": True,
        "seed": 99,
    }
    with LocalStack(games=(game_id,), clock=VirtualClock(START)) as stack:
        faults = StepFaults(stack, every_point()) if faulty else None
        run = run_match(stack, request, timeout=300)
        record = stack.host({"command": "export", "match_id": run.match_id})
        stalled = stack.host({"command": "status", "match_id": run.match_id}).get("stalled")
        store = ports_from_environment().store
        garnets = store.balances(tuple(p["id"] for p in request["players"])) | store.purses(run.match_id)
        ports_from_environment.cache_clear()
        mails = [(mail.told_as, mail.raw) for mail in stack.outbox.sent]
    assert record.pop("ok"), record
    del record["match_id"]
    # the log's events as a clean run's, but for their hashes (which start from the match id), the
    # moves' commitments and the order of those at the same instant (DynamoDB sorts those by a random nonce)
    record["events"] = sorted(
        COMMITMENT.sub('"commitment": "C"', json.dumps({k: v for k, v in event.items() if k != "prev"}, sort_keys=True))
        for event in record["events"]
    )
    for phase in record["phases"]:  # whose moves have salts, not the salts (each run draws its own)
        phase["salts"] = {player: sorted(kinds) for player, kinds in phase["salts"].items()}
    return run, record | {"garnets": garnets}, faults, stalled, told(run, mails)


LOG_HEAD = {"log_head": "H"}
"""The final notice's hash of the log starts from the match id: every notice's is made H."""


def told(run: MatchRun, mails: list[tuple[str | None, bytes]]) -> dict[str, list[str]]:
    """Every notice delivered (its body as JSON: its id among it) and every notice's mail sent
    (its id and its Message-ID), in order, with the match id made "M" and the Message-ID's unique
    part "U" (each run has its own match id, from which that part is made)."""
    notices = [*run.announcements, *(notice for private in run.private.values() for notice in private)]
    message_ids = [(told_as or "", parse_message(raw).message_id) for told_as, raw in mails]
    return {
        "notices": [
            SALT.sub('"salt": "S"', json.dumps(notice | LOG_HEAD, sort_keys=True)).replace(run.match_id, "M")
            for notice in notices
        ],
        "mails": [
            f"{told_as} {UNIQUE.sub('.U@', message_id)}".replace(run.match_id, "M")
            for told_as, message_id in message_ids
        ],
        "message_ids": [message_id for _told_as, message_id in message_ids],
    }


def repeats(sent: list[str]) -> int:
    """How many were sent again (none more than once again)."""
    again = Counter(sent) - Counter(set(sent))
    assert set(again.values()) <= {1}, again
    return sum(again.values())


@pytest.mark.parametrize(("game_id", "rule_set", "players"), MATCHES, ids=[f"{g}-{r}" for g, r, _ in MATCHES])
def test_a_fault_at_every_step_leaves_the_match_as_a_clean_run_would(game_id, rule_set, players) -> None:
    clean_run, clean_record, _, _, clean_told = play(game_id, rule_set, players, faulty=False)
    run, record, faults, stalled, faulty_told = play(game_id, rule_set, players, faulty=True)

    assert (clean_run.status, run.status) == ("SUCCEEDED", "SUCCEEDED")
    assert stalled is None
    assert record == clean_record
    assert run.result == clean_run.result
    if isinstance(registry.load(game_id), ActsAtOnce):
        assert any(phase["actions"] for phase in record["phases"]), "the bots took immediate actions"

    # Faults struck every kind of step, at every position, before and after the call
    struck = faults.injected
    points = {(s.step, s.operation, s.after) for s in struck}
    assert {s.step for s in struck} == STEPS
    assert {
        ("advance", "TransactWriteItems", True),  # a resolution stored, its reply lost
        ("advance", "TransactWriteItems", False),
        ("advance", "PublishBatch", True),  # an announcement sent, its reply lost
        ("advance", "Invoke", False),
        ("wait", "UpdateItem", True),  # a wait's token stored, its reply lost
        ("wait", "Invoke", False),
    } <= points

    # Each notice and each mail as in the clean run, once; again only after a send's reply was
    # lost: a PublishBatch's repeats its batch (of one topic: one notice at least, ten at most),
    # a SendEmail's its one mail, each with the same id, body and Message-ID
    lost = Counter(s.operation for s in struck if s.after and s.operation in ("PublishBatch", "SendEmail"))
    assert repeats(clean_told["notices"]) == repeats(clean_told["mails"]) == 0
    assert clean_told["mails"], "the participants have addresses: notices are mailed"
    assert sorted(set(faulty_told["notices"])) == sorted(clean_told["notices"])
    assert lost["PublishBatch"] <= repeats(faulty_told["notices"]) <= BATCH * lost["PublishBatch"]
    assert sorted(set(faulty_told["mails"])) == sorted(clean_told["mails"])
    assert repeats(faulty_told["mails"]) == repeats(faulty_told["message_ids"]) == lost["SendEmail"]


def test_every_point_strikes_each_point_once_before_any_again() -> None:
    a, b, c = Fault("GetItem"), Fault("Query"), Fault(INVOKE)
    plan = every_point({"advance": (a, b, c)})
    advance = {"step": "advance"}
    # (retry?, what the plan gives): a strikes (a retry follows); b strikes nothing (no retry
    # follows); c strikes; b, tried again, strikes; all have struck: a comes round again
    given = [plan(0, advance, retry) for retry in (False, True, False, False, True, False, True, False)]
    assert given == [a, None, b, c, None, b, None, a]
    assert plan(0, {"step": "current"}, False) is None  # a step with no strike points runs clean
