"""Fixtures shared by the integration and state machine tests.

`stack` is a whole local stack per test (moto as AWS, the ASL match-asl writes on moto's Step Functions
interpreter, the real handlers in-process) on a virtual clock: time passes only when a test says
so (`stack.advance(seconds)`, `stack.advance_to_next_wake()`), and the state machines' waits and
the handlers' `now` move together. `stack.settle()` waits until every running execution is parked
in a wait, so nothing a test checks depends on how fast the machine is. `crates_match(...)`
creates a Pushing Crates match through the host-commands handler and returns a `CratesMatch` that
talks to it the way the host and the players would: host commands, webhook submissions, status,
export.
"""

from __future__ import annotations

import json
import logging
import os
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# Hypothesis's per-example deadline (200 ms) is a timed assertion: on a loaded 2-core machine a
# sound example overran it. The examples' counts stay; only the clock is taken out.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

ROOT = Path(__file__).resolve().parent.parent
EVENTS = ROOT / "events"
SAMPLE_MATCH_ID = "m-0123456789ab"
"""The match id the sample events in events/ carry; tests put a live one in its place."""

PREGAME, ROUND = "multipliers", "round"


SLOW = (
    "tests/unit/games/palindrome/test_palindrome_primality.py::test_the_gmp_test_agrees_with_the_pure_python_reference",
    "tests/unit/service/test_every_line_read.py::test_every_line_every_participant_reads_holds_to_the_rules",
    "tests/unit/page/test_page_secrecy.py::test_no_page_shows_anything_of_another_participants_private_seat",
    "tests/unit/games/test_text_conformance.py::test_generated_bodies_never_raise_and_every_line_is_read_or_named",
    "tests/unit/games/test_text_conformance.py::test_every_valid_submission_and_action_round_trips",
    "tests/unit/games/test_conformance.py::test_a_seeded_match_gives_the_same_bytes_whatever_the_hash_seed",
    "tests/unit/games/test_conformance.py::test_another_participants_private_seat_never_shows_in_a_view",
    "tests/unit/games/test_purity.py::test_no_function_of_a_game_changes_what_it_was_handed",
    "tests/unit/mail/test_mail_properties.py::",
    "tests/unit/games/clubs/test_clubs_board.py::test_every_position_of_a_bot_match_draws_small_and_well_formed",
    "tests/unit/games/domino/test_domino_placing.py::test_a_placement_the_checker_accepts_leaves_the_board_connected",
    "tests/unit/games/palindrome/test_palindrome_bidding.py::test_resolution_never_gives_",
    "tests/unit/cli/test_cli_errors.py::test_a_server_on_a_port_in_use_says_so_in_one_line",
    "tests/unit/season/test_season_real_results.py::",
    "tests/contract/test_store_log.py::test_a_hundred_events_of_one_second",
)
"""Unit and contract tests marked `slow` (by node id, from its start): each walks a whole population
(every position of bot matches, thousands of generated bodies or numbers) or starts processes, and
takes seconds where the rest take milliseconds. `bin/test --fast` leaves them out; `bin/test` runs
them (docs/developers/testing.md)."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "log_level(level): the POWERTOOLS_LOG_LEVEL of the test's stack")
    config.addinivalue_line("markers", "games(*ids): the games whose state machines the test's stack has (crates)")
    config.addinivalue_line("markers", "slow: a unit or contract test bin/test --fast leaves out (conftest.SLOW)")


HEAVY_FIRST = ("tests/statemachine/", "tests/sixth_game/", "tests/browser/", "tests/integration/", "tests/test_")
"""The folders whose tests take seconds to a minute each, longest first; the rest (and the SLOW ones
among them, before the others) follow."""


def cost_rank(item: pytest.Item) -> int:
    """Where the test goes in the run: the costliest first, so that the last tests either worker
    takes are the millisecond ones and both end together (a minute-long test started last would
    leave the other worker idle for that minute)."""
    for rank, folder in enumerate(HEAVY_FIRST):
        if item.nodeid.startswith(folder):
            return rank
    return len(HEAVY_FIRST) + (0 if item.nodeid.startswith(SLOW) else 1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
    items.sort(key=cost_rank)  # stable: each module's tests stay together, in their order


def push(crate: str, direction: str = "right", times: int = 1) -> list[dict[str, str]]:
    """`times` pushes of one crate in one direction, as a round submission lists them."""
    return [{"crate": crate, "direction": direction} for _ in range(times)]


def texts(reasons: list[Any]) -> list[str]:
    """What a refusal's reasons say, from a reply (dicts) or an error (`Reason`s)."""
    return [reason["text"] if isinstance(reason, dict) else reason.text for reason in reasons]


def load_event(name: str, match_id: str | None = None) -> dict[str, Any]:
    """A sample event from events/, with the sample match id replaced by a live one."""
    text = (EVENTS / name).read_text(encoding="utf-8")
    if match_id is not None:
        text = text.replace(SAMPLE_MATCH_ID, match_id)
    event: dict[str, Any] = json.loads(text)
    return event


def walk(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every (path, value) in a JSON document, containers included."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, (*path, str(key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, (*path, str(index)))


def host_alerts(stack: Any) -> Callable[[], list[dict[str, Any]]]:
    """What the host's alerts topic publishes, through an SQS queue on it: call it to read what
    came since."""
    sqs = stack.client("sqs")
    url = sqs.create_queue(QueueName="host-alerts-test")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    stack.client("sns").subscribe(
        TopicArn=stack.host_topic, Protocol="sqs", Endpoint=arn, Attributes={"RawMessageDelivery": "true"}
    )

    def received() -> list[dict[str, Any]]:
        messages = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", [])
        return [json.loads(message["Body"]) for message in messages]

    return received


class Capture(logging.Handler):
    """Every log record, whole (its fields and message), for tests that no secret is logged."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.dumps(record.__dict__, default=str) + record.getMessage())


def wait_until(check: Callable[[], Any], timeout: float, what: str, interval: float = 0.05) -> Any:
    """Poll `check` until it returns something truthy; fail naming `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


@dataclass
class CratesMatch:
    """A live Pushing Crates match on the local stack, seen from the host's and players' side."""

    stack: Any
    match_id: str
    secrets: dict[str, str]
    players: list[str]
    created: dict[str, Any]
    replies: list[tuple[str, int, dict[str, Any]]] = field(default_factory=list)

    # -- players -------------------------------------------------------------------------------

    def submit(
        self,
        player: str,
        phase: str,
        kind: str,
        submission: Any,
        *,
        secret: str | None = None,
        delivery_id: str | None = None,
    ) -> tuple[int, dict[str, Any]]:
        body = {"phase": phase, "kind": kind, "submission": submission}
        return self.post(player, body, secret=secret, delivery_id=delivery_id)

    def post(
        self,
        player: str,
        body: dict[str, Any] | str,
        *,
        secret: str | None = None,
        delivery_id: str | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """POST a raw body through the webhook handler, as API Gateway would."""
        secret = self.secrets.get(player, "no-secret") if secret is None else secret
        status, reply = self.stack.submit(self.match_id, player, secret, body, delivery_id or uuid.uuid4().hex)
        self.replies.append((player, status, reply))
        return status, reply

    def multipliers(self, player: str, values: list[int], phase: str = "Pregame") -> tuple[int, dict]:
        return self.submit(player, phase, PREGAME, {"multipliers": values})

    def turn(self, player: str, phase: str, pushes: list[dict[str, str]], ground: str) -> tuple[int, dict]:
        return self.submit(player, phase, ROUND, {"pushes": pushes, "ground": ground})

    # -- the host ------------------------------------------------------------------------------

    def host(self, command: str, **fields: Any) -> dict[str, Any]:
        """A host command; one that acts (not status or export) returns once the state machine it
        woke has settled, so what a test does next never races the machine's reaction."""
        reply: dict[str, Any] = self.stack.host({"command": command, "match_id": self.match_id, **fields})
        if command not in ("status", "export"):
            self.stack.settle()
        return reply

    def status(self) -> dict[str, Any]:
        reply = self.host("status")
        assert reply["ok"], reply
        return reply

    def export(self) -> dict[str, Any]:
        reply = self.host("export")
        assert reply.pop("ok"), reply
        return reply

    def advance(self, seconds: float) -> None:
        """Let `seconds` pass on the stack's clock (every wait due meanwhile wakes, in order)."""
        self.stack.advance(seconds)

    def now(self) -> datetime:
        """The service's now (the stack's virtual clock)."""
        moment: datetime = self.stack.now()
        return moment

    def wait_resolved(self, count: int, timeout: float = 15) -> dict[str, Any]:
        """The status once the state machine has settled, which must show `count` phases resolved
        (or the match ended). Time does not pass: a phase due only at its deadline needs `advance`.

        `timeout` bounds the real wait, at least the stack's generous settle bound. Once settled,
        the resolution (one DynamoDB transaction, which moto applies item by item) and its event
        log entries are all written."""
        from local_stack.aws.stack import SETTLE_SECONDS

        timeout = max(timeout, SETTLE_SECONDS)
        self.stack.settle(timeout)

        def settled() -> dict[str, Any] | None:
            status = self.status()
            if status["phases_resolved"] < count and status["status"] == "running":
                return None
            kinds = [event.type for event in self.events()]
            if kinds.count("phase_resolved") < min(count, status["phases_resolved"]):
                return None
            if status["status"] == "finished" and "finished" not in kinds:
                return None
            return status

        status = settled()
        assert status is not None, f"{count} phases of {self.match_id} not resolved once settled: {self.status()}"
        return status

    def wait_for_token(self) -> str:
        """The state machine's wait token, once it has settled in its wait."""
        self.stack.settle()
        token = self.ports.store.task_token(self.match_id)
        assert token, f"the state machine of {self.match_id} is not waiting"
        return str(token)

    def resolve_now(self, timeout: float = 15) -> dict[str, Any]:
        """The host resolves the open phase now; returns the status once it has resolved."""
        before = self.status()["phases_resolved"]
        reply = self.host("resolve_now")
        assert reply["ok"], reply
        return self.wait_resolved(before + 1, timeout)

    # -- what the service keeps ------------------------------------------------------------------

    @property
    def ports(self) -> Any:
        return self.stack.ports()

    def events(self, kind: str | None = None) -> list[Any]:
        return [event for event in self.ports.store.events(self.match_id) if kind in (None, event.type)]

    def stored_submissions(self, number: int) -> dict[str, dict[str, Any]]:
        submissions: dict[str, dict[str, Any]] = self.ports.store.submissions(self.match_id, number)
        return submissions

    def execution(self) -> dict[str, Any]:
        description: dict[str, Any] = self.stack.execution(self.match_id, "crates")
        return description

    def wait_for_execution(self, timeout: float = 30) -> str:
        status: str = self.stack.wait_for_execution(self.match_id, "crates", timeout=timeout)
        return status


def crates_request(
    players: int | list[str] = 4,
    *,
    phase_seconds: int = 3600,
    early_close: bool = False,
    seed: int = 7,
    garnets: dict[str, int] | None = None,
    recheck_seconds: int | None = None,
    settings: dict[str, Any] | None = None,
    reminders: list[int] | None = None,
) -> dict[str, Any]:
    """The host's settings file for a Pushing Crates match (players p1..pN or the ids given)."""
    ids = [f"p{i}" for i in range(1, players + 1)] if isinstance(players, int) else list(players)
    garnets = garnets or {}
    request: dict[str, Any] = {
        "game": "crates",
        "settings": settings or {},
        "players": [{"id": p, **({"garnets": garnets[p]} if p in garnets else {})} for p in ids],
        "phase_seconds": phase_seconds,
        "early_close": early_close,
        "seed": seed,
    }
    if recheck_seconds is not None:
        request["recheck_seconds"] = recheck_seconds
    if reminders is not None:
        request["reminders"] = reminders
    return request


def _end_running_executions(stack: Any) -> None:
    """End what a test left running, so no interpreter thread outlives its stack: cancel the
    match (the service's own way out), or stop the execution if that does not end it."""
    sfn = stack.client("stepfunctions")
    running = stack.running_executions()
    for arn in running:
        match_id = json.loads(sfn.describe_execution(executionArn=arn).get("input") or "{}").get("match_id")
        if match_id:
            stack.host({"command": "cancel", "match_id": match_id})
    if running:
        try:
            stack.settle()
        except TimeoutError:
            pass  # stopped below
    for arn in stack.running_executions():
        sfn.stop_execution(executionArn=arn)


@pytest.fixture
def stack(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh local stack for one test; the process environment is restored afterwards."""
    from game_core.aws.wiring import ports_from_environment
    from local_stack.aws.clock import VirtualClock
    from local_stack.aws.stack import LocalStack

    marker = request.node.get_closest_marker("log_level")
    level = marker.args[0] if marker else "WARNING"
    games_marker = request.node.get_closest_marker("games")
    games = games_marker.args if games_marker else ("crates",)
    saved = dict(os.environ)
    try:
        with LocalStack(log_level=level, games=games, clock=VirtualClock()) as local:
            # A Powertools logger keeps the level it was first configured with in this process
            # (one Lambda container would never see two); give this stack's its own.
            for logger in logging.Logger.manager.loggerDict.values():
                if isinstance(logger, logging.Logger) and getattr(logger, "powertools_handler", None):
                    logger.setLevel(level)
            try:
                yield local
            finally:
                _end_running_executions(local)
    finally:
        ports_from_environment.cache_clear()
        os.environ.clear()
        os.environ.update(saved)
        time.tzset()


@pytest.fixture
def crates_match(stack: Any) -> Callable[..., CratesMatch]:
    """Create a Pushing Crates match: `crates_match(4, phase_seconds=2, early_close=True, ...)`.

    The default phase lasts an hour, and the stack's clock moves only when a test advances it,
    so nothing resolves unless a test asks (resolve now, early close) or lets time pass. The
    match is returned once its state machine waits in its first phase."""

    def create(players: int | list[str] = 4, **options: Any) -> CratesMatch:
        request = crates_request(players, **options)
        created = stack.host({"command": "create", "match": request})
        assert created["ok"], created
        # The machine starts on its own threads: let it reach its first wait, so that what a test
        # stages next never races the machine's first steps (however slow the machine is).
        stack.settle()
        return CratesMatch(
            stack=stack,
            match_id=created["match_id"],
            secrets=created["secrets"],
            players=[p["id"] for p in request["players"]],
            created=created,
        )

    return create
