"""Announced absences on the fakes (Pushing Crates, Ada and Bo with addresses; the clock starts on
Tuesday 1 December 2026, 12:00 UTC; the match's default rules: 7 days in all, 4 at most at once,
a 24-hour margin). Every moment expected is worked out by hand from the calendar and the rules."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from conftest import ROOT, texts
from crates_driver import Table
from test_service_mail_in import ADA, BO, HOST, MID, answers, open_table, send

from game_core.cli.schemas import describe
from game_core.cli.verify import verdict
from game_core.errors import Illegal, Malformed
from game_core.mail.inbound import parse_message
from game_core.service.commands import parse_host_command, run_host_command
from game_core.service.host.replace import replace
from game_core.service.matches import phases
from game_core.service.matches.actions import ActionRequest, act_by_webhook, take_action
from game_core.service.matches.lifecycle import export_record, match_status
from game_core.service.matches.views import standing


def away(table: Table, start: str, end: str, who: str = "ada") -> dict:
    action = {"from": start, "to": end}
    reply: dict = take_action(table.ports, ActionRequest(MID, who, "absence", action, "webhook"))
    return reply


def mail_to(table: Table, address: str) -> str:
    """The text of the last mail sent to `address`."""
    return parse_message([mail for mail in table.fakes.mailer.sent if mail.to == address][-1].raw).text


ADA_AWAY_TO_THE_4TH = [
    "The deadline is held for an announced absence: ada.",
    "ada is away from Tuesday 1 December, 00:00 UTC until Thursday 3 December,",
    "00:00 UTC.",
    "Pregame closes Friday 4 December, 00:00 UTC, in 2 days 12 hours.",
]
"""What a mail says once Ada is away the 1st and 2nd, seen at noon on the 1st: the Pregame's
deadline held to midnight of the 4th, 60 hours away."""


def held_lines(text: str) -> list[str]:
    """The lines of a mail from the one saying a deadline is held, through the deadline's."""
    lines = text.splitlines()
    held = lines.index("The deadline is held for an announced absence: ada.")
    return lines[held : held + 4]


def test_an_absence_across_the_deadline_holds_it_for_everyone_and_everyone_is_told_why() -> None:
    table = open_table()
    phases.wait(table.ports, MID, 1, 0, "tok-1")  # the Pregame waits until 13:00 today
    reply = away(table, "2026-12-01", "2026-12-02")
    # Away all of the 1st and 2nd (UTC: Ada has no zone): until midnight of the 3rd; the 13:00
    # deadline falls in it and moves to that midnight plus the margin, Friday the 4th, 00:00.
    assert (reply["changed"], reply["deadline_held"]) == (True, True)
    assert (reply["from"], reply["until"]) == ("2026-12-01T00:00:00Z", "2026-12-03T00:00:00Z")
    assert table.deadline() == datetime(2026, 12, 4, tzinfo=UTC)
    assert table.fakes.workflow.woken == ["tok-1"]  # the machine reads the new deadline
    [event] = table.events("absence_declared")
    assert event.data == {
        "actor": "ada",
        "from": "2026-12-01T00:00:00Z",
        "until": "2026-12-03T00:00:00Z",
        "channel": "webhook",
        "deadline_held": True,
    }
    # One public notice says why, naming who is away until when (and no reason: none is kept);
    # Ada's own says it to her, as hers.
    notice, own = table.fakes.notifier.notices()[-2:]
    assert notice.recipient is None
    assert notice.subject == f"[{MID}] The deadline moves to Friday 4 December, 00:00 UTC: ada is away"
    assert (own.recipient, own.body["you"]) == ("ada", "ada")
    assert own.subject == f"[{MID}] The deadline moves to Friday 4 December, 00:00 UTC: you are away"
    assert notice.body["open"]["held_for"] == ["ada"]
    assert notice.body["open"]["away"] == [
        {"who": "ada", "from": "2026-12-01T00:00:00Z", "until": "2026-12-03T00:00:00Z"}
    ]
    # Bo's mail says it in words, and his deadline is Ada's: 60 hours from now.
    assert held_lines(mail_to(table, BO)) == ADA_AWAY_TO_THE_4TH
    bo = standing(table.fakes.store.submission_view(MID, "bo", None), "bo")
    assert bo["open"]["deadline"] == "2026-12-04T00:00:00Z"
    # The hold is an extension, as the host's is: 13:00 on the 1st to midnight on the 4th is 59 hours.
    table.resolve_at_deadline()
    [record] = table.fakes.store.phase_records(MID)
    assert (record.extension_seconds, record.timed_out) == (59 * 3600, True)


def test_a_phase_that_opens_with_its_deadline_in_an_absence_is_held_when_it_opens() -> None:
    table = open_table(phase_seconds=86_400)  # the Pregame closes at noon on the 2nd, Round 1 a day later
    send(table, ADA, "ABSENT 2026-12-03")
    # All of the 3rd: the Pregame's deadline is before it, so nothing moves yet.
    assert table.deadline() == datetime(2026, 12, 2, 12, tzinfo=UTC)
    [(_, said)] = answers(table)
    assert "Done: ABSENT 2026-12-03." in said.text.splitlines()
    assert (
        "You are away as declared: a phase that waits for your move and would close while you are away, "
        "or within 24 hours of your return, waits until 24 hours after it."
    ) in " ".join(said.text.split())
    table.resolve_at_deadline()
    # Round 1 opens at noon on the 2nd, due at noon on the 3rd, inside Ada's day away: held to
    # the end of it plus the margin, midnight of the 5th (36 hours later).
    match = table.match()
    assert match.phase is not None and match.phase.name == "Round 1"
    assert (match.phase.deadline, match.phase.held_for) == (datetime(2026, 12, 5, tzinfo=UTC), ("ada",))
    announced = mail_to(table, BO)
    assert "The deadline is held for an announced absence: ada." in announced
    assert "Round 1 closes Saturday 5 December, 00:00 UTC, in 2 days 12 hours." in announced
    table.resolve_at_deadline()
    assert table.fakes.store.phase_records(MID, 2)[0].extension_seconds == 36 * 3600
    # The record keeps the declaration in its log, and replays (the hold is in the phase's record).
    record = export_record(table.ports, MID)
    assert [event["type"] for event in record.events or [] if event["type"].startswith("absence")] == [
        "absence_declared"
    ]
    assert verdict(record, None).startswith("verified: ")


def test_a_declaration_sent_again_changes_nothing_the_second_time() -> None:
    table = open_table()
    away(table, "2026-12-01", "2026-12-02")
    version, told = table.match().version, len(table.fakes.notifier.notices())
    again = away(table, "2026-12-01", "2026-12-02")
    assert (again["changed"], again["answer"]) == (False, "That absence stands already; nothing changed.")
    assert table.match().version == version and len(table.fakes.notifier.notices()) == told
    assert len(table.events("absence_declared")) == 1
    assert table.deadline() == datetime(2026, 12, 4, tzinfo=UTC)  # not held twice


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        ("ABSENT 2026-12-24 2026-12-27", ["Done: ABSENT 2026-12-24 2026-12-27."]),
        ("absent 2026-12-24  to 2026-12-27", ["Done: ABSENT 2026-12-24 TO 2026-12-27."]),
        ("ABSENT 2026-12-24T18:00 2026-12-27T09:00", ["Done: ABSENT 2026-12-24T18:00 2026-12-27T09:00."]),
        # Five whole days, the 24th to the 28th, against the default longest of 4
        (
            "ABSENT 2026-12-24 2026-12-28",
            ["ABSENT 2026-12-24 2026-12-28 was not done:", "  - it lasts 5 days; an absence lasts at most 4 days here"],
        ),
        (
            "ABSENT soon",
            [
                "ABSENT SOON was not done:",
                "  - write ABSENT 2026-12-24 2026-12-27 (your first and last days away, or",
                "    date-times: 2026-12-24T18:00), or ABSENT CANCEL to withdraw it",
            ],
        ),
        ("ABSENT CANCEL", ["ABSENT CANCEL: nothing changed.", "You have no absence to withdraw; nothing changed."]),
    ],
)
def test_absent_by_mail(line: str, answer: list[str]) -> None:
    table = open_table()
    send(table, ADA, line)
    [(_, said)] = answers(table)
    lines = said.text.splitlines()
    assert lines[2 : 2 + len(answer)] == answer


def test_over_the_cap_by_mail_then_withdrawn_and_help_offers_absent() -> None:
    table = open_table()
    send(table, ADA, "ABSENT 2026-12-10 2026-12-13")  # 4 days of her 7
    send(table, ADA, "ABSENT 2026-12-20 2026-12-23")  # 4 more: 3 are left
    send(table, ADA, "ABSENT CANCEL")
    send(table, BO, "HELP")
    [(_, first), (_, over), (_, cancelled), (_, help_text)] = answers(table)
    assert "Done: ABSENT 2026-12-10 2026-12-13." in first.text
    assert "  - it lasts 4 days, and you have 3 days of absence left of 7" in over.text.splitlines()
    assert "Done: ABSENT CANCEL." in cancelled.text.splitlines()
    assert table.match().absences == ()  # withdrawn before it began: gone
    # Folded at 78 columns: "holds" would take the line to 84
    assert "Away for a while? ABSENT 2026-12-24 2026-12-27 (your first and last days away)\nholds" in help_text.text


def test_a_webhook_absence_reads_the_match_once() -> None:
    # The webhook reads the match to check the secret: declaring and withdrawing take that read
    table = open_table()
    store = table.fakes.store
    store.reads.clear()
    secret = table.created["secrets"]["ada"]
    for key, action in (("k-1", {"from": "2026-12-01", "to": "2026-12-02"}), ("k-2", {"cancel": True})):
        request = ActionRequest(MID, "ada", "absence", action, "webhook")
        assert act_by_webhook(table.ports, MID, "ada", secret, key, lambda r=request: r)["changed"] is True
    assert store.reads == ["view", "get"] * 2  # the fake's view reads the header through get


def test_the_webhook_action_is_in_match_schemas_and_a_malformed_one_is_refused() -> None:
    table = open_table()
    schema = describe("crates", None)["absence_action_schema"]
    forms = [schema["$defs"][form["$ref"].rsplit("/", 1)[-1]] for form in schema["anyOf"]]
    assert [sorted(form["required"]) for form in forms] == [["from", "to"], ["cancel"]]
    for malformed in ({"from": "2026-12-24"}, {"cancel": False}, {"from": 20261224, "to": "2026-12-25"}, "away"):
        with pytest.raises(Malformed) as refused:
            take_action(table.ports, ActionRequest(MID, "ada", "absence", malformed, "webhook"))
        assert texts(refused.value.reasons) == [
            'an absence is {"from": "2026-12-24", "to": "2026-12-27"} (dates or date-times), or {"cancel": true}'
        ]
    withdrawn = take_action(table.ports, ActionRequest(MID, "ada", "absence", {"cancel": True}, "webhook"))
    assert withdrawn["changed"] is False


def host_absence(table: Table, **fields: object) -> dict:
    """The console's sample event (events/host_absence.json) on this match, with `fields` changed."""
    with open(f"{ROOT}/events/host_absence.json") as sample:
        event = json.load(sample) | {"match_id": MID} | fields
    reply: dict = run_host_command(table.ports, parse_host_command(event))
    return reply


def test_the_host_cuts_an_absence_then_refuses_it_and_the_participant_is_told() -> None:
    table = open_table()
    away(table, "2026-12-24", "2026-12-27")  # the 24th to midnight of the 28th
    assert match_status(table.ports, MID)["open"]["away"] == [
        {"who": "ada", "from": "2026-12-24T00:00:00Z", "until": "2026-12-28T00:00:00Z"}
    ]
    told = len(table.fakes.notifier.notices())
    cut = host_absence(table)  # the sample: cut to the 25th, that day included
    assert cut["absence"] == {
        "act": "cut",
        "who": "ada",
        "from": "2026-12-24T00:00:00Z",
        "until": "2026-12-26T00:00:00Z",
    }
    [notice] = table.fakes.notifier.notices()[told:]
    assert (notice.recipient, notice.subject) == ("ada", f"[{MID}] The host cut your absence")
    assert (
        "The host cut your absence short: away from Thursday 24 December, 00:00 UTC\n"
        "until Saturday 26 December, 00:00 UTC."
    ) in mail_to(table, ADA)
    # The same cut again: it ends there already, so nothing changes and nobody is told again.
    assert host_absence(table)["changed"] is False
    assert len(table.fakes.notifier.notices()) == told + 1 and len(table.events("absence_cut")) == 1

    refused = host_absence(table, act="refuse", to=None)
    assert refused["absence"]["act"] == "refused" and table.match().absences == ()
    assert table.fakes.notifier.notices()[-1].subject == f"[{MID}] The host refused your absence"
    assert [e.data for e in table.events("absence_refused")] == [refused["absence"]]
    with pytest.raises(Illegal) as again:  # refused again: there is none left to refuse
        host_absence(table, act="refuse", to=None)
    assert texts(again.value.reasons) == ["ada has no absence under way or to come"]


def test_status_by_mail_says_who_is_away_and_whose_absence_holds_the_deadline() -> None:
    table = open_table()
    away(table, "2026-12-01", "2026-12-02")
    table.fakes.mailer.sent.clear()
    send(table, BO, "STATUS")
    [(_, said)] = answers(table)
    assert held_lines(said.text) == ADA_AWAY_TO_THE_4TH


def test_a_replaced_players_absences_leave_with_them() -> None:
    table = open_table()
    away(table, "2026-12-01", "2026-12-01")  # under way: the 1st, until midnight
    away(table, "2026-12-24", "2026-12-25")  # to come
    table.fakes.clock.advance(3600)  # 13:00: the Pregame, held by the first, is still open
    replace(table.ports, MID, "ada", "Dana", "dana@example.com")
    # The one under way ends at the replacement, 13:00; the one to come is gone: Dana is not away.
    assert [(a.participant, a.start, a.end) for a in table.match().absences] == [
        ("ada", datetime(2026, 12, 1, tzinfo=UTC), datetime(2026, 12, 1, 13, tzinfo=UTC))
    ]


def test_the_hosts_status_by_mail_says_who_is_away() -> None:
    table = open_table()
    away(table, "2026-12-24", "2026-12-27")
    send(table, HOST, "STATUS")
    [(_, said)] = answers(table)
    # Ada has no zone, nor has the host: UTC, the 24th to midnight of the 28th.
    assert "ada is away from Thursday 24 December, 00:00 UTC until Monday 28 December," in said.text.splitlines()
