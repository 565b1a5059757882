"""Grace periods on the fakes (issue 22 item 1): at a deadline that finds a participant still
owing a move, one with a grace left uses it and the phase is held `grace_seconds` more, once; it
resolves as soon as the moves of those who used a grace are in, else when the hold ends, as the
rules say for a missing move. Every match here: phases of a day, a grace of an hour, 1 grace each,
early close off, the machine running the `advance` step as it does after each wait."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import texts
from crates_driver import request
from fakes import Fakes
from test_service_mail_in import message, receipt
from test_service_told import FlakyStore

from game_core.cli import host as cli_host
from game_core.cli import verify
from game_core.cli.schemas import describe
from game_core.errors import Conflict, Illegal, NotOpen
from game_core.mail.inbound import parse_message
from game_core.match.model import Match, MatchRequest
from game_core.match.replay import replay, states
from game_core.service.commands import Graces, parse_host_command, run_host_command
from game_core.service.host import powers as host
from game_core.service.mail.receive import receive
from game_core.service.matches import grace, phases
from game_core.service.matches.lifecycle import create_match, export_record, match_status
from game_core.service.matches.submit import SubmissionRequest, submit
from game_core.service.matches.views import standing

DAY, HOUR = 86_400, 3_600
EVENTS = Path(__file__).resolve().parents[3] / "events"
MULTIPLIERS = {"multipliers": [2, 1, 1, 0, -1, -1]}
STILL_A_ROUND = {"pushes": [], "ground": "stone"}


def new_match(
    fakes: Fakes, game: str, players: tuple[str, ...], settings: dict[str, Any] | None = None, graces: int = 1
) -> str:
    entries: list[dict[str, Any]] = [{"id": p, "name": p.title(), "email": f"{p}@example.org"} for p in players]
    if game == "clubs":  # each player brings one guest
        entries = [entry | {"guests": [{"id": f"{entry['id']}g"}]} for entry in entries]
    settings_file = {
        "game": game,
        "settings": settings or {},
        "players": entries,
        "phase_seconds": DAY,
        "seed": 11,
        "graces": graces,
        "grace_seconds": HOUR,
    }
    return create_match(fakes.ports, MatchRequest.model_validate(settings_file))["match_id"]


def send(fakes: Fakes, match_id: str, moves: dict[str, dict[str, Any]]) -> None:
    phase = fakes.store.get(match_id).phase
    assert phase is not None
    for player, kinds in moves.items():
        for kind, body in kinds.items():
            assert submit(fakes.ports, SubmissionRequest(match_id, player, phase.name, kind, body, "test"))["accepted"]


def at_deadline(fakes: Fakes, match_id: str) -> Match:
    """Let the open phase's time run out, then run the machine's step: the match it leaves."""
    phase = fakes.store.get(match_id).phase
    assert phase is not None
    fakes.clock.set(phase.deadline)
    phases.advance(fakes.ports, match_id)
    return fakes.store.get(match_id)


@dataclass(frozen=True)
class GraceCase:
    """A game where Ann sends nothing to two phases in a row: the first is held for her grace and
    then resolves without her move, the second (her grace used) resolves at its deadline."""

    game: str
    players: tuple[str, ...]
    settings: dict[str, Any]
    others: tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]
    """What the others send to the first and the second phase."""
    late: tuple[str, ...]
    """Who owes the first phase a move and sends nothing (each uses their grace)."""
    without_ann: Callable[[dict[str, Any]], Any]
    """What the game's state says of the missing move(s), after both phases."""
    expected: Any


CASES = [
    # RULINGS, Pushing Crates: multipliers "None at all: the listed order (round 1 gets -1, ...,
    # round 6 gets 2)"; fixed at the end of Round 1, which Ann misses too.
    GraceCase(
        "crates",
        ("ann", "ben"),
        {},
        ({"ben": {"multipliers": MULTIPLIERS}}, {"ben": {"round": STILL_A_ROUND}}),
        ("ann",),
        lambda state: (state["pregame_multipliers"].get("ann"), state["multipliers"]["ann"]),
        (None, [-1, -1, 0, 1, 1, 2]),
    ),
    # RULINGS, Palindrome: "A player who put no card and no garnet on an item is not a bidder";
    # Ben's 9 on pack 1 is the only card on it, so it is his, and Ann holds no digits.
    GraceCase(
        "palindrome",
        ("ann", "ben", "cat"),
        {"rule_set": "mm5"},
        (
            {"ben": {"bid": {"cards": [{"card": 9, "pack": 1}]}}, "cat": {"bid": {}}},
            {"ben": {"bid": {}, "construction": {}}, "cat": {"bid": {}}},
        ),
        ("ann",),
        lambda state: (
            state["rounds"][0]["pack_winners"][0],
            *(state["seats"]["ann"][key] for key in ("bids", "digits")),
        ),
        ("ben", [{"round": 1, "bid": None}, {"round": 2, "bid": None}], ""),
    ),
    # RULINGS, Domino: "zero is no bid": Ann bids nothing in auctions 1 and 2 and spends nothing;
    # Ben's 5 chips on tile 1 win it.
    GraceCase(
        "domino",
        ("ann", "ben"),
        {},
        ({"ben": {"bid": {"bids": [{"tile": 1, "chips": 5}]}}}, {"ben": {"bid": {}, "place": {"placements": []}}}),
        ("ann",),
        lambda state: (state["auctions"][0]["winners"][0], [a["spent"]["ann"] for a in state["auctions"]]),
        ("ben", [0, 0]),
    ),
    # RULINGS, Abstrac row: "when the reserve is gone, the player loses (configurable: the service
    # plays the smallest legal move)"; with smallest_move, Ann's starter is herself (the protected
    # player starts) and her lay the single lowest card, both played by the service.
    GraceCase(
        "abstrac",
        ("ann", "ben"),
        {"on_empty_reserve": "smallest_move"},
        ({}, {}),
        ("ann",),
        lambda state: [(move["kind"], move["by_service"]) for move in state["row"]["moves"]],
        [("starter", True), ("lay", True)],
    ),
    # RULINGS, Puzzler's Clubs: "No submission: no draft": nobody drafts 1A or 2A, nobody wins a card.
    GraceCase(
        "clubs",
        ("ann", "ben", "cat"),
        {},
        ({}, {}),
        ("ann", "anng", "ben", "beng", "cat", "catg"),
        lambda state: [sorted(won for won in round_["won"].values() if won) for round_ in state["rounds"][:2]],
        [[], []],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case.game for case in CASES])
def test_a_grace_holds_the_deadline_once_then_the_missing_move_is_as_the_rules_say(case: GraceCase) -> None:
    fakes = Fakes()
    match_id = new_match(fakes, case.game, case.players, case.settings)
    first = fakes.store.get(match_id).phase
    assert first is not None
    send(fakes, match_id, case.others[0])

    # At the deadline: held an hour for whoever sent nothing, each using their one grace
    held = at_deadline(fakes, match_id)
    assert held.phase is not None and held.phase.number == first.number
    assert held.phase.grace_held == case.late
    assert held.phase.deadline == first.deadline + timedelta(hours=1)
    assert {who: held.graces_left[who] for who in case.late} == dict.fromkeys(case.late, 0)
    assert held.phases_resolved == 0

    # The hour passes: the phase resolves without their moves, the hold on its record
    after = at_deadline(fakes, match_id)
    [record] = fakes.store.phase_records(match_id)
    assert (record.timed_out, record.missing, record.graced) == (True, case.late, case.late)
    length = int((first.deadline - first.opened_at).total_seconds())  # a day; Abstrac's 24 h + 48 h reserve
    assert (record.extension_seconds, record.elapsed_seconds) == (HOUR, length + HOUR)
    assert after.phase is not None and "ann" in after.phase.owes

    # Ann misses the next deadline too: no grace left, so it resolves at once, held for nobody
    send(fakes, match_id, case.others[1])
    last = at_deadline(fakes, match_id)
    second = fakes.store.phase_records(match_id)[1]
    assert (second.number, second.timed_out, second.graced, second.extension_seconds) == (
        after.phase.number,
        True,
        (),
        0,
    )
    assert "ann" in second.missing and last.phases_resolved == second.number
    assert case.without_ann(last.state) == case.expected
    assert len([event for event in fakes.store.events(match_id) if event.type == "grace_held"]) == 1
    # The record replays to the live state: the hold is in it as an extension
    _phase, replayed = list(states(export_record(fakes.ports, match_id)))[-1]
    assert replayed.model_dump(mode="json") == last.state


def crates(fakes: Fakes, graces: int = 1) -> str:
    """Ann and Ben in Pushing Crates: the Pregame, 12:00 on 1 December to 12:00 on the 2nd."""
    return new_match(fakes, "crates", ("ann", "ben"), graces=graces)


def test_when_the_moves_of_all_who_used_a_grace_are_in_the_phase_resolves_at_once() -> None:
    fakes = Fakes()
    match_id = crates(fakes)
    held = at_deadline(fakes, match_id)  # both late: held until 13:00 for both
    assert held.phase is not None and held.phase.grace_held == ("ann", "ben")
    phases.wait(fakes.ports, match_id, 1, held.phase.version, "tok-1")  # the machine waits again

    fakes.clock.advance(600)
    send(fakes, match_id, {"ann": {"multipliers": MULTIPLIERS}})
    assert phases.current(fakes.ports, match_id)["due"] is False and fakes.workflow.woken == []
    fakes.clock.advance(600)
    send(fakes, match_id, {"ben": {"multipliers": MULTIPLIERS}})
    assert fakes.workflow.woken == ["tok-1"]  # the early-close path: requested and woken
    [closed] = [event for event in fakes.store.events(match_id) if event.type == "resolve_requested"]
    assert closed.data == {"reason": "everyone who used a grace on the deadline has sent their moves"}

    phases.advance(fakes.ports, match_id)
    [record] = fakes.store.phase_records(match_id)
    # Closed at Ben's move, 12:20 on the 2nd: a day and 20 minutes open, not timed out
    assert (record.elapsed_seconds, record.timed_out, record.missing) == (DAY + 1200, False, ())
    assert record.graced == ("ann", "ben")


@pytest.mark.parametrize("ann_sends", [True, False], ids=["graceless-sends-too", "graceless-sends-nothing"])
def test_one_with_no_grace_left_holds_nothing_but_may_send_while_the_phase_is_held(ann_sends: bool) -> None:
    fakes = Fakes()
    match_id = crates(fakes)
    send(fakes, match_id, {"ben": {"multipliers": MULTIPLIERS}})
    at_deadline(fakes, match_id)  # the Pregame: Ann uses her grace
    at_deadline(fakes, match_id)  # and sends nothing in it
    # Round 1: both late; only Ben has a grace, so it is held for him alone
    held = at_deadline(fakes, match_id)
    assert held.phase is not None and (held.phase.name, held.phase.grace_held) == ("Round 1", ("ben",))
    assert held.graces_left == {"ann": 0, "ben": 0}
    [told_ann] = [m for m in fakes.mailer.sent if m.to == "ann@example.org" and "Round 1 is held" in m.raw.decode()]
    assert (
        "You have no grace left. The phase is open while it is held: your move is taken until it closes."
        in " ".join(parse_message(told_ann.raw).text.split())
    )

    if ann_sends:  # the phase is open: Ann's move is taken, and the phase still waits for Ben
        send(fakes, match_id, {"ann": {"round": STILL_A_ROUND}})
        assert phases.current(fakes.ports, match_id)["due"] is False
    send(fakes, match_id, {"ben": {"round": STILL_A_ROUND}})
    assert phases.current(fakes.ports, match_id)["due"] is True  # Ben's move closes it
    phases.advance(fakes.ports, match_id)
    record = fakes.store.phase_records(match_id)[-1]
    assert (record.name, record.timed_out, record.missing) == ("Round 1", False, () if ann_sends else ("ann",))


def test_the_hold_is_told_naming_the_late_publicly_and_each_their_graces_privately() -> None:
    fakes = Fakes()
    match_id = new_match(fakes, "crates", ("ann", "ben", "cat"), graces=2)
    send(fakes, match_id, {"cat": {"multipliers": MULTIPLIERS}})
    before = len(fakes.mailer.sent)
    at_deadline(fakes, match_id)

    notices = {n.recipient: n for n in fakes.notifier.notices(match_id) if "/grace-1/" in n.notice_id}
    assert set(notices) == {None, "ann", "ben"}  # Cat sent hers: the public notice only
    public = notices[None]
    assert public.subject == f"[{match_id}] Pregame is held for a grace: Ann, Ben"
    assert public.body["grace_hold"] == {
        "phase": "Pregame",
        "number": 1,
        "late": ["ann", "ben"],
        "graced": ["ann", "ben"],
        "seconds": HOUR,
        "until": "2026-12-02T13:00:00Z",  # opened 12:00 on the 1st, a day, then the hour
    }
    assert "graces_left" not in public.body and public.body["open"]["grace_held"] == ["ann", "ben"]
    assert "-1, -1" not in json.dumps([notice.body for notice in notices.values()])  # nothing Cat sent
    assert (notices["ann"].body["graces_left"], notices["ann"].body["you_owe"]) == (1, ["multipliers"])

    texts = {mail.to: parse_message(mail.raw).text for mail in fakes.mailer.sent[before:]}
    held = [
        "Pregame passed its deadline still waiting for a move from Ann, Ben. A grace is",
        "used for Ann, Ben: the phase is held 1 hour more, and resolves once the moves",
        "owed by Ann, Ben are in, or when the grace ends.",
    ]
    ann = texts["ann@example.org"].splitlines()
    assert ann[2:8] == [
        *held,
        "",
        "You used a grace: you have 1 grace left.",
        "A reminder: Pregame still waits for your multipliers submission.",
    ]
    # How to answer (HELP's text, below every notice) says what a grace does
    assert "is held 1 hour for you while you have a grace left (STATUS says how many)." in " ".join(ann)
    cat = texts["cat@example.org"].splitlines()
    assert cat[2:5] == held and not any(line.startswith(("You used", "You have")) for line in cat)
    assert "Pregame closes Wednesday 2 December, 13:00 UTC, in 1 hour." in cat


def test_status_and_each_standing_show_the_graces_left_only_where_the_match_has_graces() -> None:
    fakes = Fakes()
    match_id = crates(fakes, graces=2)
    send(fakes, match_id, {"ben": {"multipliers": MULTIPLIERS}})
    at_deadline(fakes, match_id)  # Ann uses one of her two
    assert match_status(fakes.ports, match_id)["graces_left"] == {"ann": 1, "ben": 2}
    ann = standing(fakes.store.submission_view(match_id, "ann", None), "ann")
    ben = standing(fakes.store.submission_view(match_id, "ben", None), "ben")
    assert (ann["graces_left"], ben["graces_left"]) == (1, 2)  # each their own count, no one else's
    assert ann["open"]["grace_held"] == ["ann"]
    # Once a deadline: at the hold's end Ann still has a grace, but the Pregame resolves
    assert at_deadline(fakes, match_id).graces_left == {"ann": 1, "ben": 2}
    assert fakes.store.phase_records(match_id)[0].graced == ("ann",)

    # STATUS by mail says the sender's own count
    before = len(fakes.mailer.sent)
    receive(fakes.ports, receipt(message("ann@example.org", "STATUS"), match_id=match_id))
    [answer] = [parse_message(mail.raw) for mail in fakes.mailer.sent[before:]]
    assert "You have 1 grace left." in answer.text.splitlines()

    plain = Fakes()
    without = create_match(plain.ports, request(("ann", "ben")))["match_id"]
    assert "graces_left" not in match_status(plain.ports, without)
    assert "graces_left" not in standing(plain.store.submission_view(without, "ann", None), "ann")


class SaveFailsOnce(FlakyStore):
    """The hold's save (a host act's too) fails its next `failing["save"]` calls."""

    def save(self, *args: Any, **kwargs: Any) -> None:
        self._call("save")
        super().save(*args, **kwargs)


def test_a_retried_deadline_step_uses_one_grace_and_tells_each_notice_once() -> None:
    # The step fails once at each place a fault can stop it (a mail send, the hold's save), and
    # is run again after it went through (a lost reply): one hold, one grace, each notice once.
    store = SaveFailsOnce(save=1)
    fakes = Fakes(store=store)
    match_id = crates(fakes, graces=2)
    fakes.clock.set(fakes.store.get(match_id).phase.deadline)
    fakes.mailer.fail_after = 1  # Ann's mail goes, Ben's fails
    with pytest.raises(RuntimeError):
        phases.advance(fakes.ports, match_id)
    with pytest.raises(RuntimeError, match="save failed"):  # all told, then the hold not stored
        phases.advance(fakes.ports, match_id)
    assert fakes.store.get(match_id).phase.grace_held == ()  # nothing stored yet
    phases.advance(fakes.ports, match_id)
    phases.advance(fakes.ports, match_id)

    match = fakes.store.get(match_id)
    assert match.graces_left == {"ann": 1, "ben": 1} and match.phase.deadline == fakes.clock.now() + timedelta(hours=1)
    told = [n.notice_id for n in fakes.notifier.notices(match_id) if "/grace-" in n.notice_id]
    assert told == [f"{match_id}/grace-1/@all", f"{match_id}/grace-1/ann", f"{match_id}/grace-1/ben"]
    assert [mail.to for mail in fakes.mailer.sent if "held for a grace" in mail.raw.decode()] == [
        "ann@example.org",
        "ben@example.org",
    ]
    assert len([event for event in fakes.store.events(match_id) if event.type == "grace_held"]) == 1


def test_a_host_act_landing_while_the_hold_is_told_is_read_again() -> None:
    fakes = Fakes()
    match_id = crates(fakes)
    fakes.clock.set(fakes.store.get(match_id).phase.deadline)
    saving = fakes.store.save

    def host_extends_first(*args: Any, **kwargs: Any) -> None:
        fakes.store.save = saving  # type: ignore[method-assign]
        host.extend(fakes.ports, match_id, 2 * HOUR)
        raise Conflict("the match changed meanwhile")

    fakes.store.save = host_extends_first  # type: ignore[method-assign]
    phases.advance(fakes.ports, match_id)
    # Read again: the host's two hours stand, no phase is due, and no grace was used
    match = fakes.store.get(match_id)
    assert (match.phase.grace_held, match.graces_left) == ((), {"ann": 1, "ben": 1})
    assert match.phase.extension_seconds == 2 * HOUR


def test_a_machine_looking_after_the_grace_would_have_ended_resolves_without_one() -> None:
    fakes = Fakes()
    match_id = crates(fakes)
    fakes.clock.set(fakes.store.get(match_id).phase.deadline + timedelta(hours=1))
    phases.advance(fakes.ports, match_id)
    assert fakes.store.get(match_id).graces_left == {"ann": 1, "ben": 1}
    assert fakes.store.phase_records(match_id)[0].graced == ()


def test_abstrac_charges_a_move_sent_in_the_grace_no_reserve_for_the_hold() -> None:
    # Row clock: 24 h a move + 48 h reserve, so Ann's starter phase runs 72 h. Sent 30 minutes
    # into the hour's grace: 72.5 h open less the 1 h hold = 71.5 h used, 47.5 h of it overtime,
    # leaving 30 minutes of reserve (as a host's extension would).
    fakes = Fakes()
    match_id = new_match(fakes, "abstrac", ("ann", "ben"))
    at_deadline(fakes, match_id)
    fakes.clock.advance(1800)
    send(fakes, match_id, {"ann": {"starter": {"starter": "ben"}}})
    phases.advance(fakes.ports, match_id)
    [move] = fakes.store.get(match_id).state["row"]["moves"]
    assert (move["starter"], move["by_service"], move["reserve_after"]) == ("ben", False, 1800)


@pytest.mark.parametrize(
    ("graces", "seconds", "named"),
    [(2, 0, "graces (2) and grace_seconds (0) go together"), (0, HOUR, "graces (0) and grace_seconds (3600)")],
)
def test_graces_without_a_length_or_a_length_without_graces_is_refused(graces: int, seconds: int, named: str) -> None:
    settings_file = request().model_dump(mode="json") | {"graces": graces, "grace_seconds": seconds}
    with pytest.raises(ValueError, match=named.replace("(", r"\(").replace(")", r"\)")):
        MatchRequest.model_validate(settings_file)


# -- the host's command ------------------------------------------------------------------------


def graces_event(match_id: str) -> dict[str, Any]:
    """The console's sample event (events/host_graces.json) for this match."""
    event = json.loads((EVENTS / "host_graces.json").read_text())
    return event | {"match_id": match_id}


def test_the_host_gives_graces_to_a_match_that_had_none_and_each_is_told_privately() -> None:
    fakes = Fakes()
    match_id = create_match(fakes.ports, request(("ann", "ben")))["match_id"]
    before = len(fakes.notifier.notices(match_id))
    reply = run_host_command(fakes.ports, parse_host_command(graces_event(match_id)))  # 2 graces of 12 hours
    assert (reply["changed"], reply["grace_seconds"], reply["graces_left"]) == (True, 43_200, {"ann": 2, "ben": 2})

    told = fakes.notifier.notices(match_id)[before:]
    assert [(n.recipient, n.body["graces_left"]) for n in told] == [("ann", 2), ("ben", 2)]  # none public
    # Sent again: nothing changes, nobody is told twice, one log entry
    assert run_host_command(fakes.ports, parse_host_command(graces_event(match_id)))["changed"] is False
    assert len(fakes.notifier.notices(match_id)) == before + 2
    [event] = [e for e in fakes.store.events(match_id) if e.type == "graces_set"]
    assert event.data == {"left": 2, "seconds": 43_200, "players": ["ann", "ben"]}

    # Ann's deadline is then held 12 hours, as if the settings file had said so
    assert at_deadline(fakes, match_id).phase.deadline - fakes.clock.now() == timedelta(hours=12)


def test_the_host_takes_one_participants_graces_away_by_name_and_they_alone_are_told() -> None:
    fakes = Fakes()
    match_id = crates(fakes, graces=2)
    before = len(fakes.mailer.sent)
    reply = grace.set_graces(fakes.ports, match_id, 0, player="ANN")
    assert reply["graces_left"] == {"ann": 0, "ben": 2} and reply["grace_seconds"] == HOUR
    [mail] = fakes.mailer.sent[before:]
    assert mail.to == "ann@example.org"
    assert "The host set your graces: you have no grace left." in parse_message(mail.raw).text.splitlines()

    reply = grace.set_graces(fakes.ports, match_id, 3, seconds=2 * HOUR, player="ben")
    text = " ".join(parse_message(fakes.mailer.sent[-1].raw).text.split())
    assert "The host set your graces: you have 3 graces left, each holding a deadline 2 hours for you." in text


def test_graces_without_a_length_are_refused_and_a_finished_match_takes_none() -> None:
    fakes = Fakes()
    match_id = create_match(fakes.ports, request(("ann", "ben")))["match_id"]
    with pytest.raises(Illegal) as refused:
        grace.set_graces(fakes.ports, match_id, 1)
    assert texts(refused.value.reasons) == [
        "the match has no grace length yet: give the seconds a grace holds a deadline "
        "(--seconds 43200, the console's seconds: 12 hours)"
    ]
    host.cancel(fakes.ports, match_id)
    with pytest.raises(NotOpen, match="the match is cancelled"):
        grace.set_graces(fakes.ports, match_id, 1, seconds=HOUR)


def test_match_host_graces_sends_the_console_command(monkeypatch) -> None:
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(cli_host, "send", lambda command, function, endpoint: sent.append(command) or {"ok": True})
    assert cli_host.main(["--local", "graces", "m-1", "1", "--seconds", "600", "--to", "Bo"]) == 0
    assert sent == [{"command": "graces", "match_id": "m-1", "left": 1, "seconds": 600, "player": "Bo"}]
    assert isinstance(parse_host_command(sent[0]), Graces)


def test_the_hosts_status_by_mail_lists_everyones_graces_left() -> None:
    fakes = Fakes()
    settings_file = request(("ann", "ben"), host_email="host@example.org").model_dump(mode="json")
    with_graces = MatchRequest.model_validate(settings_file | {"graces": 2, "grace_seconds": HOUR})
    match_id = create_match(fakes.ports, with_graces)["match_id"]
    grace.set_graces(fakes.ports, match_id, 1, player="ben")
    before = len(fakes.mailer.sent)
    receive(fakes.ports, receipt(message("host@example.org", "STATUS"), match_id=match_id))
    [answer] = [parse_message(mail.raw).text for mail in fakes.mailer.sent[before:]]
    assert "Graces left: ann 2, ben 1" in answer.splitlines()


def test_match_schemas_prints_the_grace_fields_of_the_settings_file() -> None:
    fields = describe("crates", None)["grace_settings_schema"]
    assert (fields["graces"]["maximum"], fields["grace_seconds"]["maximum"]) == (100, 366 * DAY)


def test_a_whole_match_with_graces_used_verifies_and_replays_to_its_result() -> None:
    # Crates, Ann sends nothing all match and has 2 graces: the Pregame and Round 1 are held for
    # her, Rounds 2 to 6 resolve at their deadlines; Ben plays every round.
    fakes = Fakes()
    match_id = crates(fakes, graces=2)
    send(fakes, match_id, {"ben": {"multipliers": MULTIPLIERS}})
    while (phase := fakes.store.get(match_id).phase) is not None:
        if phase.name.startswith("Round") and not fakes.store.submissions(match_id, phase.number):
            send(fakes, match_id, {"ben": {"round": STILL_A_ROUND}})
        at_deadline(fakes, match_id)
    record = export_record(fakes.ports, match_id)
    assert [phase.graced for phase in record.phases] == [("ann",), ("ann",), (), (), (), (), ()]
    assert verify.verdict(record, None).startswith("verified")
    assert replay(record)["result"] == fakes.store.get(match_id).result
