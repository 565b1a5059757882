"""Sealed receipts (issue 23 item 1), on the fakes: every accepted move's answer carries
SHA-256(salt || canonical JSON of {"kind", "submission"}) with a fresh 256-bit salt; the reveal
opens each counted move with its salt, publicly where the rules show that kind to everyone, else
to its sender alone; match-verify --receipt checks kept receipts against the exported record.

The fakes draw the salts in order: the n-th is SHA-256("salt-n") in hex (`SequentialIds.salt`)."""

from __future__ import annotations

import hashlib
import html
import json
from pathlib import Path
from typing import Any

import pytest
from crates_driver import Table
from fakes import Fakes
from test_service_mail_in import ADA, BO, answers, message, receipt, round_one, send

from game_core.cli import verify
from game_core.mail.inbound import parse_message
from game_core.match.model import MatchRequest
from game_core.service.mail.receive import Outcome, receive
from game_core.service.matches import phases
from game_core.service.matches.lifecycle import create_match, export_record
from game_core.service.matches.submit import SubmissionRequest, submit, submit_by_webhook
from game_core.service.matches.views import participant_view
from game_core.service.page import play, render

MID = "m-000000000001"
MULTIPLIERS = {"multipliers": [2, 1, 1, 0, -1, -1]}
HEADING = [
    "Sealed receipt of what you sent: keep it. At the reveal, the move counted as",
    "yours must open this seal exactly, so it cannot have been changed after you",
    "sent it. The reveal shows the move and its salt: SHA-256 of the salt then the",
    "move must give the commitment below.",
]
"""What heads a receipt in a mail: what it proves and how the reveal is checked, as prose folded
within 78 columns."""


def nth_salt(n: int) -> str:
    return hashlib.sha256(f"salt-{n}".encode()).hexdigest()


def sealed(salt: str, move_json: str) -> str:
    """The protocol restated: SHA-256 over the salt's 32 bytes, then the move's JSON (sorted keys,
    no spaces, UTF-8) as written out by hand in each test."""
    return hashlib.sha256(bytes.fromhex(salt) + move_json.encode()).hexdigest()


ADA_MULTIPLIERS = '{"kind":"multipliers","submission":{"multipliers":[2,1,1,0,-1,-1]}}'


def test_an_accepted_move_gets_a_receipt_that_seals_it_and_shows_no_part_of_it() -> None:
    table = Table.open()
    table.fakes.clock.advance(90)  # 12:01:30

    reply = table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)

    assert reply["receipt"] == {
        "match_id": MID,
        "phase": "Pregame",
        "number": 1,
        "player": "ada",
        "kind": "multipliers",
        "at": "2026-12-01T12:01:30Z",
        "commitment": sealed(nth_salt(1), ADA_MULTIPLIERS),
    }
    # Nothing of the move nor of its salt: only where and when, and 256 bits no one can invert.
    text = json.dumps(reply["receipt"])
    assert "[2, 1, 1, 0, -1, -1]" not in text and "2, 1" not in text and nth_salt(1) not in text
    assert len(bytes.fromhex(nth_salt(1))) == 32


def test_the_deployed_ids_draw_a_fresh_256_bit_salt_each_time() -> None:
    # The fakes' salts are predictable on purpose; what AWS's ports draw must be neither short nor repeated
    from game_core.aws.wiring import RandomIds

    ids = RandomIds()
    drawn = [ids.salt() for _ in range(3)]
    assert len(set(drawn)) == 3 and all(len(bytes.fromhex(salt)) == 32 for salt in drawn)


def test_the_senders_standing_gives_the_receipt_of_each_move_that_stands_and_no_other() -> None:
    table = Table.open()
    table.submit("ada", "Pregame", "multipliers", {"multipliers": [-1, -1, 0, 1, 1, 2]})
    counted = table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)["receipt"]  # replaces it

    ada = participant_view(table.ports, MID, "ada", table.created["secrets"]["ada"])
    bo = participant_view(table.ports, MID, "bo", table.created["secrets"]["bo"])

    assert ada["receipts"] == {"multipliers": counted}
    assert counted["commitment"] == sealed(nth_salt(2), ADA_MULTIPLIERS)
    assert bo["receipts"] == {} and counted["commitment"] not in json.dumps(bo)


def test_a_webhook_redelivery_returns_the_same_receipt_and_a_replacing_resend_a_new_one() -> None:
    table = Table.open()
    secret = table.created["secrets"]["ada"]

    def by_webhook(key: str, multipliers: list[int]) -> dict[str, Any]:
        request = SubmissionRequest(MID, "ada", "Pregame", "multipliers", {"multipliers": multipliers}, "webhook")
        return submit_by_webhook(table.ports, MID, "ada", secret, key, lambda: request)

    first = by_webhook("delivery-1", [2, 1, 1, 0, -1, -1])
    again = by_webhook("delivery-1", [2, 1, 1, 0, -1, -1])
    replaced = by_webhook("delivery-2", [-1, -1, 0, 1, 1, 2])

    assert again["receipt"] == first["receipt"]
    assert table.fakes.ids.salts == 2  # the redelivery drew none
    moved = '{"kind":"multipliers","submission":{"multipliers":[-1,-1,0,1,1,2]}}'
    assert replaced["receipt"]["commitment"] == sealed(nth_salt(2), moved) != first["receipt"]["commitment"]


def test_a_mail_answer_carries_the_receipt_as_one_json_line_and_a_redelivery_the_same() -> None:
    table = round_one()  # Round 1 opened 13:00
    raw = message(ADA, "PUSH ada RIGHT")
    failing = table.fakes.mailer.send

    def unavailable(_mail: object) -> None:
        raise RuntimeError("SES is unavailable")

    table.fakes.mailer.send = unavailable  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):  # stored, then its answer lost
        receive(table.ports, receipt(raw))
    table.fakes.mailer.send = failing  # type: ignore[method-assign]
    assert receive(table.ports, receipt(raw)) == Outcome.ANSWERED

    [(_, letter)] = answers(table)
    lines = letter.text.splitlines()
    at = lines.index("It costs no garnets.")
    assert lines[at + 1 : at + 5] == HEADING
    move = '{"kind":"round","submission":{"ground":"stone","pushes":[{"crate":"ada","direction":"right"}]}}'
    assert json.loads(lines[at + 5]) == {
        "match_id": MID,
        "phase": "Round 1",
        "number": 2,
        "player": "ada",
        "kind": "round",
        "at": "2026-12-01T13:00:00Z",
        "commitment": sealed(nth_salt(1), move),  # one salt: the lost answer's move was not stored twice
    }
    assert table.fakes.ids.salts == 1


def test_status_by_mail_lists_the_senders_receipts_of_the_open_phase_as_the_echo_gave_them(tmp_path) -> None:
    table = round_one()  # Round 1 opened 13:00
    table.fakes.clock.advance(120)  # 13:02
    send(table, ADA, "PUSH ada RIGHT")  # salt 1
    table.fakes.mailer.sent.clear()

    send(table, ADA, "STATUS")
    send(table, BO, "STATUS")

    [(_, ada), (_, bo)] = answers(table)
    move = '{"kind":"round","submission":{"ground":"stone","pushes":[{"crate":"ada","direction":"right"}]}}'
    kept = {
        "match_id": MID,
        "phase": "Round 1",
        "number": 2,
        "player": "ada",
        "kind": "round",
        "at": "2026-12-01T13:02:00Z",
        "commitment": sealed(nth_salt(1), move),
    }
    # under what stands from her, the heading and the receipt's JSON on one line, as her move's
    # answer gave it (sorted keys, no spaces), which match-verify --receipt reads as written
    listed = ada.text.splitlines()
    at = listed.index("What stands from you for Round 1:")
    assert listed[at + 3 : at + 8] == [*HEADING, "  " + json.dumps(kept, sort_keys=True, separators=(",", ":"))]
    (tmp_path / "kept.txt").write_text("\n".join(listed[at + 7 : at + 8]))
    assert verify.read_receipts(str(tmp_path / "kept.txt")) == [kept]
    # Bo has sent nothing: no receipt, and nothing of Ada's
    assert "Sealed receipt" not in bo.text and kept["commitment"] not in bo.text
    assert table.fakes.ids.salts == 1


def test_the_players_page_shows_the_receipt_of_what_stands_under_it() -> None:
    table = Table.open()  # the Pregame opened 12:00; Ada's secret is secret-1
    ada = play.sign_in(table.ports, MID, "secret-1")
    fields = {"csrf": ada.csrf, "kind": "multipliers", "phase": "Pregame", "number": "1", "delivery": "d-1"}
    fields |= {f"f.multipliers.{i}": str(value) for i, value in enumerate(MULTIPLIERS["multipliers"])}
    play.send_move(table.ports, MID, ada.cookie, fields)

    page = render.page(play.show(table.ports, MID, ada.cookie))

    opening = '<pre class="sealed" id="receipt-multipliers">'  # folded in its details (issue 30)
    shown = page[page.index(opening) :]
    shown = html.unescape(shown[len(opening) : shown.index("</pre>")])
    assert json.loads(shown) == {
        "match_id": MID,
        "phase": "Pregame",
        "number": 1,
        "player": "ada",
        "kind": "multipliers",
        "at": "2026-12-01T12:00:00Z",
        "commitment": sealed(nth_salt(1), ADA_MULTIPLIERS),
    }


def crates_played() -> tuple[Table, list[dict[str, Any]]]:
    """Ada's multipliers, replaced once, then the match run to its end: her two receipts."""
    table = Table.open(emails={"ada": "ada@example.com", "bo": "bo@example.com"})
    kept = [table.submit("ada", "Pregame", "multipliers", {"multipliers": [-1, -1, 0, 1, 1, 2]})["receipt"]]
    kept.append(table.submit("ada", "Pregame", "multipliers", MULTIPLIERS)["receipt"])
    while table.match().phase is not None:
        table.resolve_at_deadline()
    return table, kept


def test_the_reveal_opens_a_secret_move_to_its_sender_alone_and_the_record_keeps_its_salt() -> None:
    table, _ = crates_played()
    pregame = [
        n for n in table.fakes.notifier.notices(MID) if n.notice_id.endswith(("resolved-1/@all", "resolved-1/ada"))
    ]
    others = [n for n in table.fakes.notifier.notices(MID) if n.recipient != "ada"]

    # Crates reveals no multipliers: Ada's counted one (the second, salt 2) is opened to her alone
    [public, own] = sorted(pregame, key=lambda notice: notice.recipient or "")
    assert "opened" not in public.body
    opening = {"phase": "Pregame", "number": 1, "player": "ada", "kind": "multipliers"}
    assert own.body["opened"] == [opening | {"submission": MULTIPLIERS, "salt": nth_salt(2)}]
    assert not any(nth_salt(2) in json.dumps(notice.body) or "opened" in notice.body for notice in others)
    mails = {
        mail.to: parse_message(mail.raw).text for mail in table.fakes.mailer.sent if b"Pregame resolved" in mail.raw
    }
    opened = [
        "Sealed moves opened (each receipt's commitment is SHA-256(salt + move)):",
        "  ada, multipliers for Pregame:",
        f"    move {ADA_MULTIPLIERS}",
        f"    salt {nth_salt(2)}",
    ]
    assert "\n".join(opened) in mails["ada@example.com"]
    assert "Sealed moves" not in mails["bo@example.com"] and nth_salt(2) not in mails["bo@example.com"]
    assert export_record(table.ports, MID).phases[0].salts == {"ada": {"multipliers": nth_salt(2)}}


def domino(fakes: Fakes) -> None:
    """Ann and Bob; Auction 1: Ann bids 5 on tile 1 (an O4), Bob 5 on tile 2 (an I3); then in
    'Auction 2 and placing 1' each places their tile and Ann bids again."""
    tiles = ["O4", "I3", *["L4"] * 18]
    request = {
        "game": "domino",
        "settings": {"tiles": {"1": tiles, "2": tiles, "3": tiles}},
        "players": [{"id": "ann"}, {"id": "bob"}],
        "seed": 7,
    }
    create_match(fakes.ports, MatchRequest.model_validate(request))

    def send(player: str, phase: str, kind: str, body: dict[str, Any]) -> None:
        submit(fakes.ports, SubmissionRequest(MID, player, phase, kind, body, "test"))

    send("ann", "Auction 1", "bid", {"bids": [{"tile": 1, "chips": 5}]})  # salt 1
    send("bob", "Auction 1", "bid", {"bids": [{"tile": 2, "chips": 5}]})  # salt 2
    fakes.clock.advance(86_400)
    phases.advance(fakes.ports, MID)
    phase = "Auction 2 and placing 1"
    send("ann", phase, "place", {"placements": [{"tile": 1, "cells": ["A1", "B1", "A2", "B2"]}]})  # salt 3
    send("ann", phase, "bid", {"bids": [{"tile": 21, "chips": 9}]})  # salt 4
    send("bob", phase, "place", {"placements": [{"tile": 2, "cells": ["C5", "C6", "C7"]}]})  # salt 5
    fakes.clock.advance(86_400)
    phases.advance(fakes.ports, MID)


def test_where_the_rules_reveal_a_kind_to_everyone_its_receipts_open_publicly_and_no_other() -> None:
    fakes = Fakes()
    domino(fakes)
    public = {n.notice_id.split("/")[1]: n.body for n in fakes.notifier.notices(MID) if n.recipient is None}
    bob = {n.notice_id.split("/")[1]: n.body for n in fakes.notifier.notices(MID) if n.recipient == "bob"}
    ann = {n.notice_id.split("/")[1]: n.body for n in fakes.notifier.notices(MID) if n.recipient == "ann"}

    # Bids stay secret (the winners and the chips spent are all the rules reveal): no public opening
    assert "opened" not in public["resolved-1"]
    assert [(o["player"], o["salt"]) for o in bob["resolved-1"]["opened"]] == [("bob", nth_salt(2))]
    # Every board is revealed each round: both placements open publicly, Ann's second bid does not
    ann_place = {"placements": [{"tile": 1, "cells": ["A1", "B1", "A2", "B2"]}]}
    bob_place = {"placements": [{"tile": 2, "cells": ["C5", "C6", "C7"]}]}
    where = {"phase": "Auction 2 and placing 1", "number": 2, "kind": "place"}
    assert public["resolved-2"]["opened"] == [
        where | {"player": "ann", "submission": ann_place, "salt": nth_salt(3)},
        where | {"player": "bob", "submission": bob_place, "salt": nth_salt(5)},
    ]
    assert nth_salt(4) not in json.dumps([public, bob])
    # A private notice opens what everyone sees opened as well as its reader's own (a webhook's
    # body lays it over the public one's): Ann's both placements and her bid, Bob's the placements
    assert [(o["player"], o["kind"], o["salt"]) for o in ann["resolved-2"]["opened"]] == [
        ("ann", "place", nth_salt(3)),
        ("ann", "bid", nth_salt(4)),
        ("bob", "place", nth_salt(5)),
    ]
    assert bob["resolved-2"]["opened"] == public["resolved-2"]["opened"]


def run_verify(
    tmp_path: Path, capsys, record: dict[str, Any], kept: str | None, head: str | None = None
) -> tuple[int, str, str]:
    """match-verify on the record, with the receipts `kept` (a file's text) and the published head."""
    (tmp_path / "record.json").write_text(json.dumps(record))
    options = ["--head", head] if head else []
    if kept is not None:
        (tmp_path / "kept.json").write_text(kept)
        options += ["--receipt", str(tmp_path / "kept.json")]
    code = verify.main([str(tmp_path / "record.json"), *options])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def kept_and_record() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    table, kept = crates_played()
    return kept, export_record(table.ports, MID).model_dump(mode="json")


def test_match_verify_opens_kept_receipts_as_a_reply_a_list_or_mail_lines(kept_and_record, tmp_path, capsys) -> None:
    kept, record = kept_and_record
    counted = kept[1]
    for written in (
        json.dumps({"accepted": True, "receipt": counted}),  # the webhook's reply as it came
        json.dumps([counted, counted]),
        f"  {json.dumps(counted)}\n\n",  # the line a mail answer gave
    ):
        code, out, err = run_verify(tmp_path, capsys, record, written)
        assert (code, err) == (0, "") and out.endswith("receipt(s) open to the moves counted\n"), out


CHANGED = [
    pytest.param(
        lambda r: r["phases"][0]["submissions"]["ada"]["multipliers"].update(multipliers=[2, 1, 1, -1, 0, -1]),
        id="move",
    ),
    pytest.param(lambda r: r["phases"][0]["salts"]["ada"].update(multipliers=nth_salt(9)), id="salt"),
]


@pytest.mark.parametrize("change", CHANGED)
def test_a_record_whose_move_or_salt_was_changed_fails_the_receipt(change, kept_and_record, tmp_path, capsys) -> None:
    kept, record = kept_and_record
    changed = json.loads(json.dumps(record))
    change(changed)
    code, _, err = run_verify(tmp_path, capsys, changed, json.dumps(kept[1]))
    assert code == 1
    assert "the receipt for ada's multipliers in phase 1 (Pregame): the move and salt the record" in err


def test_a_receipt_for_another_phase_or_a_replaced_move_fails_naming_it(kept_and_record, tmp_path, capsys) -> None:
    kept, record = kept_and_record
    moved = kept[1] | {"number": 2, "phase": "Round 1"}
    code, _, err = run_verify(tmp_path, capsys, record, json.dumps(moved))
    assert (code, "phase 2 (Round 1): the record counts no such move" in err) == (1, True), err
    code, _, err = run_verify(tmp_path, capsys, record, json.dumps(kept[0]))  # replaced before the reveal
    assert (code, "a later one of the same kind replaced it" in err) == (1, True), err


def link(event: dict[str, Any]) -> str:
    """The chain restated by hand: an event's hash is the SHA-256 of its JSON with its prev,
    sorted keys, no spaces (the next event's prev; the last one's is the head)."""
    return hashlib.sha256(json.dumps(event, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def rechained(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A forger's log: each event's prev set to the hash of the one before (the first's to
    SHA-256("genesis:<match id>"))."""
    prev, links = hashlib.sha256(f"genesis:{MID}".encode()).hexdigest(), []
    for event in events:
        links.append(event | {"prev": prev})
        prev = link(links[-1])
    return links


FORGED = [2, 1, 1, -1, 0, -1]
"""What the host would have Ada's counted multipliers be (she sent 2 1 1 0 -1 -1)."""
FORGED_JSON = '{"kind":"multipliers","submission":{"multipliers":[2,1,1,-1,0,-1]}}'


def test_the_chained_log_seals_each_moves_commitment_so_a_move_changed_after_fails(
    kept_and_record, tmp_path, capsys
) -> None:
    kept, record = kept_and_record
    # Events: the match created with its Pregame open, Ada's first multipliers (salt 1), then the
    # ones that replaced them (salt 2): event 3 logged the counted move's commitment, her receipt's
    [created, first, counted] = record["events"][:3]
    assert [first["type"], counted["type"]] == ["submission_accepted", "submission_accepted"]
    assert counted["data"]["commitment"] == kept[1]["commitment"] == sealed(nth_salt(2), ADA_MULTIPLIERS)
    assert first["data"]["commitment"] == kept[0]["commitment"] and "salt" not in json.dumps(record["events"])
    assert rechained(record["events"]) == record["events"]  # the hand-made chain is the service's
    head = link(record["events"][-1])  # what the final notice published
    failing = "the log's commitments: ada's multipliers in phase 1 (Pregame) does not open the commitment event 3"

    # The move edited in the record alone: the chain holds, the commitment it sealed does not open
    edited = json.loads(json.dumps(record))
    edited["phases"][0]["submissions"]["ada"]["multipliers"]["multipliers"] = FORGED
    code, _, err = run_verify(tmp_path, capsys, edited, None)
    assert (code, failing in err) == (1, True), err

    # ... and its logged commitment recomputed without the salt (only Ada's answers and the record
    # after the reveal hold it), the log rechained: the record's salt opens no such commitment
    edited["events"][2]["data"]["commitment"] = hashlib.sha256(FORGED_JSON.encode()).hexdigest()
    edited["events"] = rechained(edited["events"])
    code, _, err = run_verify(tmp_path, capsys, edited, None)
    assert (code, failing in err) == (1, True), err

    # ... or sealed with a salt of the forger's own, put in the record too: the record agrees with
    # itself, but no salt makes the forged move open Ada's receipt, and the head is not the one published
    edited["phases"][0]["salts"]["ada"]["multipliers"] = nth_salt(9)
    edited["events"][2]["data"]["commitment"] = sealed(nth_salt(9), FORGED_JSON)
    edited["events"] = rechained(edited["events"])
    code, _, err = run_verify(tmp_path, capsys, edited, json.dumps(kept[1]))
    assert (code, "the receipt for ada's multipliers in phase 1 (Pregame): the move and salt" in err) == (1, True)
    code, _, err = run_verify(tmp_path, capsys, edited, None, head)
    assert (code, f"is not the published {head}: events were added, cut or changed since" in err) == (1, True), err
    code, out, err = run_verify(tmp_path, capsys, record, json.dumps(kept[1]), head)
    # 16 events as tests/unit/cli/test_verify.py counts them, and Ada's replacing multipliers
    assert (code, out.startswith(f"verified: 17 events, head {head}; 1 receipt(s) open")) == (0, True), out + err
