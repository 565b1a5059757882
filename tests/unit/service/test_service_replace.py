"""The host gives a seat to a new player (issue 22 item 3), on the fakes (Pushing Crates, Ada and
Bo, Bo's seat handed to Dana in Round 1): the seat keeps its state, garnets and history; the old
secret and address stop at once, the new ones play; the old player, everyone else and the newcomer
are told once each, the newcomer from the seat's view alone."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from dataclasses import replace as changed
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from crates_driver import Table, push
from fakes import Fakes, RecordingMailer
from memory_hooks import MemoryHooks

from game_core.cli import verify
from game_core.errors import GameCoreError, Illegal, Malformed, NotFound, NotOpen, Unauthorized
from game_core.games import registry
from game_core.mail.inbound import parse_message
from game_core.mail.ses import Receipt, Verdicts
from game_core.match import engine
from game_core.match.model import MatchRequest
from game_core.service.commands import parse_host_command, run_host_command
from game_core.service.host import powers as host
from game_core.service.host.replace import replace
from game_core.service.mail.receive import Outcome, receive
from game_core.service.matches import ready
from game_core.service.matches.lifecycle import create_match, export_record
from game_core.service.matches.submit import SubmissionRequest, submit_by_webhook
from game_core.service.matches.views import participant_view
from game_core.service.page import play, session
from game_core.service.ports import Ports
from local_stack.laptop.access import Authenticator, MailLogin

MID = "m-000000000001"
ADA, BO, DANA = "ada@example.com", "bo@example.com", "dana@example.com"
ADA_MULTIPLIERS, BO_MULTIPLIERS = [2, 1, 1, 0, -1, -1], [-1, 0, 2, 1, 1, -1]
"""Each one's Pregame move: private to its seat (the view shows it to that seat alone)."""
BO_HOOK, DANA_HOOK = "https://bo.example.com/h", "https://dana.example.com/h"
ROOT = Path(__file__).resolve().parents[3]
PASSING = Verdicts(spf="PASS", dkim="PASS", dmarc="PASS", spam="PASS", virus="PASS")


@dataclass
class HookedTable(Table):
    """A table whose ports deliver webhooks (subscriptions kept and deliveries queued in memory)."""

    hooks: MemoryHooks = field(default_factory=MemoryHooks)

    @property
    def ports(self) -> Ports:
        return changed(self.fakes.ports, hooks=self.hooks)


def round_one(hooks: MemoryHooks | None = None, fakes: Fakes | None = None) -> Table:
    """Ada and Bo (3 garnets, deadlines in Paris time) sent their multipliers; Round 1 (phase 2,
    13:00 to 14:00) is open and Bo's 5-push turn holds 2 of his garnets; the mail sent so far
    cleared. With `hooks`, Bo's notices are POSTed to BO_HOOK."""
    fakes = fakes or Fakes()
    settings: dict[str, Any] = {
        "game": "crates",
        "players": [
            {"id": "ada", "name": "Ada", "email": ADA},
            {"id": "bo", "name": "Bo", "email": BO, "garnets": 3, "zone": "Europe/Paris"},
        ],
        "phase_seconds": 3600,
        "seed": 7,
    }
    if hooks is None:
        table = Table(fakes, MID, {})
    else:
        settings["webhooks"] = {"bo": BO_HOOK}
        table = HookedTable(fakes, MID, {}, hooks=hooks)
    table.created = create_match(table.ports, MatchRequest.model_validate(settings))
    table.submit("ada", "Pregame", "multipliers", {"multipliers": ADA_MULTIPLIERS})
    table.submit("bo", "Pregame", "multipliers", {"multipliers": BO_MULTIPLIERS})
    table.resolve_at_deadline()
    table.turn("bo", "Round 1", push("ada", 5))  # 5 pushes: holds 2
    fakes.mailer.sent.clear()
    return table


def to_dana(table: Table, **options: Any) -> dict[str, Any]:
    return replace(table.ports, MID, "Bo", "Dana", DANA, **options)


def mails(table: Table) -> dict[str, list[tuple[str, str]]]:
    """(subject, text) of each mail sent, by address."""
    sent: dict[str, list[tuple[str, str]]] = {}
    for mail in table.fakes.mailer.sent:
        letter = parse_message(mail.raw)
        sent.setdefault(mail.to, []).append((letter.subject, letter.text))
    return sent


def mail_from(table: Table, sender: str, text: str) -> Outcome:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, f"{MID}@play.test", f"Re: [{MID}] Round 1"
    message["Message-ID"] = f"<{abs(hash((sender, text)))}@example.com>"
    message.set_content(text)
    return receive(table.ports, Receipt(None, (f"{MID}@play.test",), PASSING, "", message.as_bytes()))


def webhook_turn(table: Table, secret: str, pushes: list[dict[str, str]]) -> dict[str, Any]:
    body = SubmissionRequest(MID, "bo", "Round 1", "round", {"pushes": pushes, "ground": "ice"}, "webhook")
    return submit_by_webhook(table.ports, MID, "bo", secret, None, lambda: body)


def test_a_replacement_mid_phase_stops_the_old_secret_and_address_and_the_new_ones_play() -> None:
    table = round_one()
    old_secret = table.created["secrets"]["bo"]

    reply = to_dana(table)

    new_secret = reply["secret"]
    assert reply["changed"] is True and reply["seat"] == "bo" and new_secret != old_secret
    # The old secret is refused by every check made with it: the webhook, the standing, the page
    with pytest.raises(Unauthorized):
        webhook_turn(table, old_secret, push("bo", 1))
    with pytest.raises(Unauthorized):
        participant_view(table.ports, MID, "bo", old_secret)
    # Mail from Bo's address is a stranger's now: it changes nothing and is answered by nothing
    sent_before = len(table.fakes.mailer.sent)
    assert mail_from(table, BO, "PUSH ada LEFT\nGROUND ice") is Outcome.REFUSED
    assert len(table.fakes.mailer.sent) == sent_before
    assert table.fakes.store.submissions(MID, 2)["bo"]["round"]["pushes"] == push("ada", 5)
    # Dana plays the seat with the new secret, and by mail from her address
    assert webhook_turn(table, new_secret, push("ada", 4))["accepted"] is True  # 4 pushes: holds 1
    assert mail_from(table, DANA, "PUSH bo LEFT\nGROUND rubber") is Outcome.ANSWERED
    assert table.fakes.store.submissions(MID, 2)["bo"]["round"] == {
        "pushes": push("bo", direction="left"),
        "ground": "rubber",
    }
    assert participant_view(table.ports, MID, "bo", new_secret)["you"] == "bo"
    # Ada keeps hers
    assert participant_view(table.ports, MID, "ada", table.created["secrets"]["ada"])["you"] == "ada"


def test_the_seat_keeps_its_state_garnets_and_history_and_the_log_names_who_replaced_whom() -> None:
    table = round_one()
    before = table.match()

    to_dana(table)

    after = table.match()
    # Same seat, same game state, same phase; Bo's held 2 garnets still held (3 owned, 1 free)
    assert after.player_ids == ("ada", "bo") and after.state == before.state and after.phase == before.phase
    assert table.fakes.store.garnets("bo") == (3, 1)
    assert table.fakes.store.submissions(MID, 2) == {"bo": {"round": {"pushes": push("ada", 5), "ground": "stone"}}}
    bo = after.participant("bo")
    assert bo is not None and (bo.name, bo.email, bo.zone) == ("Dana", DANA, None)  # Bo's Paris zone was his
    assert [(f.name, f.email, f.phase) for f in bo.formerly] == [("Bo", BO, "Round 1")]
    # The log (and so the exported record) names them, never an address or a secret
    [event] = table.events("replaced")
    assert event.data == {"seat": "bo", "replaced": "Bo", "by": "Dana", "phase": "Round 1"}
    record = json.dumps(export_record(table.ports, MID).model_dump(mode="json"))
    assert DANA not in record and BO not in record and "Dana" in record
    # Names in later mail are the new player's: Round 1 resolves, and Ada's mail names Dana
    table.fakes.mailer.sent.clear()
    table.resolve_at_deadline()
    [(_subject, text)] = mails(table)[ADA]
    assert "Dana" in text and "Bo" not in text


def test_the_old_player_everyone_else_and_the_newcomer_are_each_told_once() -> None:
    table = round_one()

    to_dana(table)

    sent = mails(table)
    assert sorted(sent) == [ADA, BO, DANA]
    [(subject, farewell)] = sent[BO]
    assert subject == f"[{MID}] You no longer play in this match"
    assert farewell.startswith("Hello Bo,") and "from Round 1 on" in farewell and "no longer works" in farewell
    [(subject, line)] = sent[ADA]
    assert subject == f"[{MID}] Dana now plays Bo's seat"
    assert "Bo's seat (bo) is now played by Dana." in line
    [(subject, welcome)] = sent[DANA]
    assert subject == f"[{MID}] Welcome: you now play Bo's seat"
    assert welcome.startswith("Hello Dana,") and "Welcome, Dana: the host has given you Bo's seat (bo)" in welcome
    # One public notice and Dana's welcome on SNS, with ids a retry keeps
    notices = table.fakes.notifier.notices(MID)[-2:]
    assert [(n.recipient, n.notice_id) for n in notices] == [
        (None, f"{MID}/replaced-bo-1/@all"),
        ("bo", f"{MID}/replaced-bo-1/bo"),
    ]


def test_the_welcome_shows_the_seat_its_own_view_and_no_one_else_anything_of_it() -> None:
    table = round_one()

    to_dana(table)

    match = table.match()
    game = registry.load(match.game)
    state = engine.game_state(game, match)
    public, welcome = table.fakes.notifier.notices(MID)[-2:]
    # The welcome: the seat's own view (Bo's multipliers), its turn so far and its garnets
    assert welcome.body["view"] == game.view(state, "bo")
    assert welcome.body["view"]["private"]["multipliers"]["pregame"] == BO_MULTIPLIERS
    assert welcome.body["submitted"] == {"round": {"pushes": push("ada", 5), "ground": "stone"}}
    assert welcome.body["garnets"] == {"balance": 3, "available": 1}
    assert json.dumps(ADA_MULTIPLIERS) not in json.dumps(welcome.body)
    # The public line: no view, no move, no garnets of anyone
    assert set(public.body) == {"match_id", "status", "open", "news"}
    # Mail: Dana's shows the seat's multipliers; Ada's and Bo's nothing of the seat's
    sent = mails(table)
    [(_s, dana)] = sent[DANA]
    assert "pregame: -1 0 2 1 1 -1" in dana  # BO_MULTIPLIERS as the view renders them
    for address in (ADA, BO):
        [(_s, text)] = sent[address]
        assert "pregame" not in text and "-1 0 2 1 1 -1" not in text and "garnet" not in text


def test_a_replacement_sent_again_changes_nothing_and_tells_no_one_twice() -> None:
    table = round_one()
    first = to_dana(table)
    sent, published = len(table.fakes.mailer.sent), len(table.fakes.notifier.published)
    version = table.match().version

    again = to_dana(table)

    assert again["changed"] is False and "secret" not in again
    assert again["message"] == "Dana already plays seat bo; the secret was in the first reply"
    assert table.match().version == version and len(table.events("replaced")) == 1
    assert (len(table.fakes.mailer.sent), len(table.fakes.notifier.published)) == (sent, published)
    assert participant_view(table.ports, MID, "bo", first["secret"])["you"] == "bo"


def test_a_replacement_whose_telling_failed_tells_the_rest_when_sent_again() -> None:
    table = round_one()
    table.fakes.mailer.fail_after = 1  # Bo's farewell goes; the next mail finds SES unavailable

    first = to_dana(table)

    assert first["changed"] is True and first["notice_sent"] is False
    assert sorted(mails(table)) == [BO]

    again = to_dana(table)

    assert again["changed"] is False and "notice_sent" not in again
    sent = mails(table)
    assert {address: len(told) for address, told in sent.items()} == {BO: 1, ADA: 1, DANA: 1}
    assert len(table.events("replaced")) == 1


def test_the_host_may_extend_the_open_phase_for_the_newcomer_and_the_machine_is_woken() -> None:
    table = round_one()
    table.fakes.store.set_task_token(MID, 2, 0, "token-2")
    deadline = table.deadline()

    reply = to_dana(table, extend_seconds=7200)

    assert table.deadline() == deadline + timedelta(seconds=7200)  # 14:00 + 2 hours
    assert reply["open"]["deadline"] == "2026-12-01T16:00:00Z"
    assert table.fakes.workflow.woken == ["token-2"]
    [event] = table.events("replaced")
    assert event.data["extended_seconds"] == 7200
    # Without the option the deadline stands, and nothing is woken
    other = round_one()
    replace(other.ports, MID, "ada", "Eve", "eve@example.com")
    assert other.deadline() == deadline and other.fakes.workflow.woken == []


@pytest.mark.parametrize(
    ("seat", "name", "email", "error", "reason"),
    [
        ("bo", "ADA", DANA, Illegal, ("name_taken", "'ADA' already names Ada (ada): choose another")),
        ("bo", "Dana", "Ada@Example.com", Illegal, ("email_taken", "Ada@Example.com is already Ada's (ada) address")),
        ("bo", "   ", DANA, Illegal, ("name_missing", "the new player's name is empty")),
        (
            "cy",
            "Dana",
            DANA,
            NotFound,
            ("not_found", "'cy' is not a participant of match m-000000000001 (Ada (ada), Bo (bo))"),
        ),
    ],
    ids=["another's name", "another's address", "no name", "no such seat"],
)
def test_a_replacement_that_would_confuse_participants_is_refused_and_stores_nothing(
    seat: str, name: str, email: str, error: type[GameCoreError], reason: tuple[str, str]
) -> None:
    table = round_one()
    version = table.match().version

    with pytest.raises(error) as refused:
        replace(table.ports, MID, seat, name, email)

    assert [(one.code, one.text) for one in refused.value.reasons] == [reason]
    assert table.match().version == version and table.fakes.mailer.sent == []


def test_only_a_running_match_has_seats_to_give() -> None:
    table = round_one()
    host.cancel(table.ports, MID)
    with pytest.raises(NotOpen, match="the match is cancelled"):
        to_dana(table)


def test_without_a_url_the_old_players_webhook_stops() -> None:
    hooks = MemoryHooks()
    table = round_one(hooks=hooks)
    hooks.queued.clear()

    to_dana(table)

    assert hooks.hook(MID, "bo") is None and "bo" not in table.match().webhooks
    assert [delivery.target for delivery in hooks.queued] == []  # the welcome goes by mail alone
    host.extend(table.ports, MID, 600)  # a later notice: nothing for the seat's old URL
    assert [delivery.target for delivery in hooks.queued] == []


def test_the_newcomers_url_takes_the_old_ones_place_once() -> None:
    hooks = MemoryHooks()
    table = round_one(hooks=hooks)
    old_hook = hooks.hook(MID, "bo")
    hooks.queued.clear()
    # A URL the service may not POST to is refused before anything is stored
    with pytest.raises(Malformed, match="the webhook URL is refused"):
        to_dana(table, webhook="http://dana.example.com/h")
    assert table.events("replaced") == [] and hooks.hook(MID, "bo") == old_hook

    reply = to_dana(table, webhook=DANA_HOOK)

    kept = hooks.hook(MID, "bo")
    assert kept is not None and kept.url == DANA_HOOK and reply["webhook"]["secret"] == kept.secret != old_hook.secret
    # The welcome is queued for the seat's new URL, from the seat's view
    [delivery] = hooks.queued
    assert (delivery.target, delivery.webhook_id) == ("bo", f"{MID}/replaced-bo-1/bo")
    assert delivery.payload["view"]["private"]["multipliers"]["pregame"] == BO_MULTIPLIERS
    # Sent again: the subscription stands, its secret unchanged and not shown again
    again = to_dana(table, webhook=DANA_HOOK)
    assert "secret" not in again["webhook"] and hooks.hook(MID, "bo") == kept and len(hooks.queued) == 1


def test_the_console_event_replaces_a_seat() -> None:
    table = round_one()
    with open(f"{ROOT}/events/host_replace.json") as sample:
        event = json.load(sample) | {"match_id": MID}

    reply = run_host_command(table.ports, parse_host_command(event))

    assert reply["changed"] is True and reply["secret"]
    assert table.match().participant("bo").name == event["name"]  # type: ignore[union-attr]


def test_the_old_players_page_session_stops_and_the_newcomers_secret_opens_the_seats_page() -> None:
    table = round_one()
    bo = play.sign_in(table.ports, MID, table.created["secrets"]["bo"])
    assert session.participant_of(table.match(), bo.cookie, table.fakes.clock.now()) == bo

    reply = to_dana(table)

    # The cookie was signed with the seat's old secret hash: it no longer matches
    assert session.participant_of(table.match(), bo.cookie, table.fakes.clock.now()) is None
    with pytest.raises(Unauthorized):
        play.sign_in(table.ports, MID, table.created["secrets"]["bo"])
    assert play.sign_in(table.ports, MID, reply["secret"]).participant == "bo"


def test_without_mail_of_its_own_the_old_address_hears_its_farewell_then_nothing_more_on_sns() -> None:
    # A deployment without a mail domain: SNS mails each address its subscriptions' notices
    table = round_one(fakes=Fakes(mailer=RecordingMailer(domain="")))
    notifier = table.fakes.notifier
    notifier.calls.clear()

    to_dana(table)

    # The farewell goes while Bo's address still hears the seat; then his address leaves the
    # match and Dana's joins; then the public line and the welcome
    assert notifier.calls == ["publish", "unsubscribe", "subscribe", "publish", "publish"]
    assert notifier.dropped == [(MID, "bo", BO)]
    farewell, public, welcome = notifier.notices(MID)[-3:]
    assert (farewell.recipient, farewell.notice_id) == ("bo", f"{MID}/farewell-bo-1/bo")
    assert set(farewell.body) == {"match_id", "farewell"} and "no longer works" in farewell.body["farewell"]
    assert (public.recipient, welcome.recipient) == (None, "bo") and "view" in welcome.body
    assert table.fakes.mailer.sent == []


def test_the_final_result_names_the_seats_player_and_says_who_played_it_before() -> None:
    table = round_one()
    to_dana(table)
    table.fakes.mailer.sent.clear()

    while table.match().status == "running":  # Rounds 1 to 6 resolve with what was sent
        table.resolve_at_deadline()

    final = mails(table)[ADA][-1][1]
    assert "Dana" in final and "Seat bo was played by Bo, then from Round 1 by Dana." in final
    # The record keeps the replacement in its chained log and replays to the same result
    record = export_record(table.ports, MID)
    [replaced] = [event for event in record.events or [] if event["type"] == "replaced"]
    assert replaced["data"] == {"seat": "bo", "replaced": "Bo", "by": "Dana", "phase": "Round 1"}
    head = table.fakes.notifier.notices(MID)[-1].body["log_head"]
    assert verify.verdict(record, head) == f"verified: {len(record.events or [])} events, head {head}"


def test_the_old_players_ready_vote_goes_with_them() -> None:
    table = round_one()  # Bo's turn is in: he may vote Round 1 ready (early close is off)
    table.turn("ada", "Round 1", push("bo"))
    assert ready.vote(table.ports, MID, "bo", True, "test")["ready_now"] == ["bo"]

    to_dana(table)

    # The newcomer has not read in: Ada's vote alone does not close the phase, Dana's then does
    phase = table.match().phase
    assert phase is not None and phase.ready == ()
    assert ready.vote(table.ports, MID, "ada", True, "test")["closing"] is False
    assert ready.vote(table.ports, MID, "bo", True, "test")["closing"] is True


def test_the_laptops_smtp_login_takes_the_new_address_and_secret_and_not_the_old() -> None:
    table = round_one()
    old_secret = table.created["secrets"]["bo"]

    new_secret = to_dana(table)["secret"]

    login = Authenticator("host-token", lambda _login: [table.match()]).login
    assert login(BO, old_secret) is None and login("bo", old_secret) is None
    assert login(BO, new_secret) is None  # the old address names no one now
    assert login(DANA, new_secret) == login("bo", new_secret) == MailLogin(participants={MID: "bo"})
