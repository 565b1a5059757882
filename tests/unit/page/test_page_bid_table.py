"""Palindrome Construction's bid on the player's page (issue 30 items 1-3), on the fakes: the board
draws the open round's bidding table with the bid as it stands and the data the page's bid table
(pickers.js) offers its cards from; the check of a bid answers each reason in words at the form's
row it is about; the form's fields say the values they take. Expected reasons are worked by hand
from RULINGS.md's Palindrome section: a player holds cards 0-9, each usable once; at most one card
a pack; any number of cards on an item; garnets (mm8 only, +5 each) never beyond the balance;
items 1 to the round's count (mm8: one item)."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from board_support import marks, parsed, texts
from phone_fit import cut, overlapping, smallest_px

from game_core.match.model import MatchRequest
from game_core.service.matches import phases
from game_core.service.matches.lifecycle import create_match
from game_core.service.page import check, play, render
from game_core.service.page.board import section

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from fakes import Fakes  # noqa: E402

PACKS = ["012", "345", "678", "901", "234", "567", "890", "123", "456", "789"]
"""Round 1's ten packs, fixed: every digit at least twice (mm8)."""


class Bidding:
    """A Palindrome match (Ada with `garnets`, Bo) open for round 1's bidding, on the fakes."""

    def __init__(self, rule_set: str = "mm8", garnets: int = 1, items: dict[str, list[str]] | None = None) -> None:
        self.fakes = Fakes()
        settings = {"rule_set": rule_set, "packs": {"1": PACKS} if rule_set == "mm8" else {}, "items": items or {}}
        players = [{"id": "ada", "name": "Ada", "garnets": garnets}, {"id": "bo", "name": "Bo"}]
        request = {"game": "palindrome", "settings": settings, "players": players, "phase_seconds": 3600, "seed": 7}
        created = create_match(self.fakes.ports, MatchRequest.model_validate(request))
        self.match_id, self.secrets = created["match_id"], created["secrets"]
        if rule_set == "mm8":  # the pregame takes no move: let it run out
            self.resolve()
        self.ada = play.sign_in(self.fakes.ports, self.match_id, self.secrets["ada"])

    def resolve(self) -> None:
        match = self.fakes.store.get(self.match_id)
        assert match.phase is not None
        self.fakes.clock.set(match.phase.deadline)
        phases.resolve(self.fakes.ports, self.match_id, match.phase.number)
        phases.announce(self.fakes.ports, self.match_id, match.phase.number)

    def form(self, rows: list[tuple[str, str, str]], **fields: str) -> dict[str, str]:
        """The bid form as posted: each (card, pack, item) in its row, every row's inputs sent
        (blank ones too, as the browser sends a form), and `fields` (garnets, garnet_item)."""
        match = self.fakes.store.get(self.match_id)
        assert match.phase is not None
        posted = {"csrf": self.ada.csrf, "kind": "bid", "phase": match.phase.name, "number": str(match.phase.number)}
        for row in range(12):
            card, pack, item = rows[row] if row < len(rows) else ("", "", "")
            posted |= {f"f.cards.{row}.card": card, f"f.cards.{row}.pack": pack, f"f.cards.{row}.item": item}
        return posted | {"f.garnets": fields.get("garnets", "0"), "f.garnet_item": fields.get("garnet_item", "1")}

    def reasons(self, rows: list[tuple[str, str, str]], **fields: str) -> list[tuple[str, str, str]]:
        said = check.check_move(self.fakes.ports, self.match_id, self.ada.cookie, self.form(rows, **fields))
        return [(one.code, one.text, one.at) for one in said.findings]


def test_a_legal_bid_has_no_reasons_and_what_it_spends_is_said() -> None:
    table = Bidding(garnets=1)
    # Card 9 on pack 7, 4 on pack 1, 2 and 5 on item 1 with 1 garnet (Ada's one): legal.
    rows = [("2", "", "1"), ("4", "1", ""), ("5", "", "1"), ("9", "7", "")]
    said = check.check_move(table.fakes.ports, table.match_id, table.ada.cookie, table.form(rows, garnets="1"))
    assert said.findings == () and said.to_json()["said"].startswith("Legal: it would spend 1 garnet")


def test_a_card_played_twice_is_said_at_its_second_row() -> None:
    table = Bidding()
    # Card 7 on pack 2 (row 1) and again on pack 5 (row 3): each card is used once.
    found = table.reasons([("7", "2", ""), ("3", "4", ""), ("7", "5", "")])
    assert found == [
        ("card_repeated", "card 7 is used 2 times; each card is used at most once", "move-bid-cards-2-card")
    ]


def test_two_cards_on_one_pack_are_said_at_the_later_rows_pack() -> None:
    table = Bidding()
    # Cards 1 and 8 both on pack 6: at most one card a pack.
    found = table.reasons([("1", "6", ""), ("8", "6", "")])
    assert found == [("pack_repeated", "pack 6 has 2 of your cards (1, 8); at most one", "move-bid-cards-1-pack")]


def test_an_item_the_round_does_not_offer_is_said_at_its_row() -> None:
    table = Bidding()
    # mm8 offers one item a round: item 2 is none.
    found = table.reasons([("6", "", "2")])
    assert found == [("item_unknown", "there is no item 2 this round (items are 1 to 1)", "move-bid-cards-0-item")]


def test_more_garnets_than_the_balance_are_said_at_the_garnets() -> None:
    table = Bidding(garnets=1)
    # Two garnets on item 1, Ada holds one: never below zero.
    [(code, text, at)] = table.reasons([("5", "", "1")], garnets="2")
    assert (code, at) == ("garnets_short", "move-bid-garnets") and text.endswith("but your balance is 1")


def test_garnets_in_main_match_5_are_said_at_the_garnets() -> None:
    table = Bidding(rule_set="mm5", garnets=3)
    found = table.reasons([("5", "", "1")], garnets="1")
    assert found == [("garnets_not_bid", "garnets cannot be bid on items in Main Match 5", "move-bid-garnets")]


def _board(table: Bidding) -> ET.Element:
    seen = play.show(table.fakes.ports, table.match_id, table.ada.cookie)
    html = section(seen, play.view_of(seen), play.names(seen.match), None).html
    return parsed(html[html.index("<svg") : html.index("</svg>") + 6])


def test_the_board_draws_the_bid_sent_on_the_open_round_and_the_rows_data_for_the_table() -> None:
    table = Bidding(garnets=1)
    before = marks(_board(table))
    # Nothing sent yet: no "your bid" on any row; each row of the open round carries what it offers.
    assert before["pack-1-3"].get("data-pack") == "3" and before["pack-1-3"].get("data-digits") == "678"
    item = before["item-1-1"]
    assert item.get("data-item") == "1" and item.get("data-garnet-value") == "5" and item.get("data-name")
    assert "your bid" not in "".join(t for key in before for t in texts(before[key]))
    sent = table.form([("9", "7", ""), ("2", "", "1"), ("5", "", "1")], garnets="1")
    assert (
        play.send_move(table.fakes.ports, table.match_id, table.ada.cookie, sent | {"delivery": "d-1"}).refusal is None
    )
    after = marks(_board(table))
    # Card 9 drawn on pack 7's row; 2 and 5 with the garnet on the item's row; pack 3 has none.
    assert "9" in texts(after["pack-1-7"])[4:]
    assert "2, 5 + 1 garnet" in texts(after["item-1-1"])
    assert texts(after["pack-1-3"])[4] == ""


def test_once_the_bidding_resolved_its_rows_carry_no_data_for_a_table() -> None:
    table = Bidding()
    table.resolve()  # round 1's bidding over: round 2's table is drawn open, round 1's no more
    found = marks(_board(table))
    assert all(key.startswith(("pack-2-", "item-2-")) for key in found if key.startswith(("pack-", "item-")))
    assert found["pack-2-1"].get("data-pack") == "1"


def test_the_page_loads_the_pickers_script_and_the_bid_form_says_its_values() -> None:
    table = Bidding()
    page = render.page(play.show(table.fakes.ports, table.match_id, table.ada.cookie))
    assert page.index('<script src="/static/pickers.js?v=') < page.index('<script src="/static/palindrome.js?v=')
    legend = page[page.index("<legend>Cards") : page.index("</legend>", page.index("<legend>Cards"))]
    # The values each row's field takes, before a first try (RULINGS: cards 0-9, packs 1-10).
    assert "0 to 9" in legend and "1 to 10" in legend


def test_the_board_with_a_bid_on_every_row_reads_at_390_px() -> None:
    table = Bidding(garnets=1)
    # Every card bid: 0-8 on packs 1-9 and 9 on the item with the garnet: the widest "your bid" column.
    rows = [(str(card), str(card + 1), "") for card in range(9)] + [("9", "", "1")]
    sent = table.form(rows, garnets="1")
    assert (
        play.send_move(table.fakes.ports, table.match_id, table.ada.cookie, sent | {"delivery": "d-2"}).refusal is None
    )
    root = _board(table)
    size, words = smallest_px(root)
    assert size >= 11, f"{words!r} is drawn at {size:.1f} px on a 390-px phone"
    assert overlapping(root) == [] and cut(root) == []
