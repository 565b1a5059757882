"""Palindrome Construction's construction built by clicks on the player's page (issue 30 item 2), on
the fakes: the board carries what the page's step list (palindrome-build.js) offers each step's
choices from (the player's three strings, the digits to place, each item held unused), and the
page's check of a construction, written by the step list into the form's box in the game's
grammar, answers a legal one with no reason and an illegal one with a reason for each bad step,
naming the step (the script shows it beside that step). Expected values are worked by hand from
RULINGS.md's Palindrome section (Construction; Items: Shift changes one of this round's unplaced
digits into a different digit; an item is used only if held)."""

from __future__ import annotations

import sys
from pathlib import Path

from board_support import marks
from test_page_bid_table import Bidding, _board

from game_core.service.page import check, play, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))


class Building(Bidding):
    """Ada has won round 1's packs 1 ("012") and 2 ("345") and its item, a Shift (Bo bid
    nothing: Ada's cards are the only ones, so the highest unique): round 1's construction is open."""

    def __init__(self) -> None:
        super().__init__(garnets=0, items={"1": ["Shift"]})
        sent = self.form([("9", "1", ""), ("8", "2", ""), ("5", "", "1")])
        assert (
            play.send_move(self.fakes.ports, self.match_id, self.ada.cookie, sent | {"delivery": "d-1"}).refusal is None
        )
        self.resolve()

    def built(self, *lines: str) -> dict[str, str]:
        match = self.fakes.store.get(self.match_id)
        assert match.phase is not None
        return {
            "csrf": self.ada.csrf,
            "kind": "construction",
            "phase": match.phase.name,
            "number": str(match.phase.number),
            "f.lines": "\n".join(["BUILD", *lines]),
        }

    def verdict(self, *lines: str) -> check.Verdict:
        return check.check_move(self.fakes.ports, self.match_id, self.ada.cookie, self.built(*lines))


def test_the_board_carries_the_strings_the_digits_to_place_and_the_items_held_for_the_step_list() -> None:
    building = Building()
    found = marks(_board(building))
    # Nothing built yet: three empty strings; the digits of packs 1 and 2 to place; the Shift held.
    for number in (1, 2, 3):
        assert found[f"string-{number}"].get("data-string") == str(number)
        assert found[f"string-{number}"].get("data-string-digits") == ""
    assert found["digits"].get("data-to-place") == "012345"
    assert [one.get("data-held-item") for one in found.values() if one.get("data-held-item")] == ["Shift"]
    assert found["item-0"].get("data-held-item") == "Shift"  # the item won (not round 2's item on offer)
    page = render.page(play.show(building.fakes.ports, building.match_id, building.ada.cookie))
    assert page.index('<script src="/static/pickers.js?v=') < page.index('<script src="/static/palindrome-build.js?v=')
    assert 'id="move-construction-lines"' in page  # the box the step list writes into (the no-script form)


def test_a_legal_construction_has_no_reason() -> None:
    # Digits 0 1 2 3 4 5. Step 1 shifts the 3 into a 1 (0 1 1 2 4 5 unplaced); step 2 places 1, 2, 1
    # at the end of string 1 (all three are unplaced): legal; 0, 4 and 5 are discarded.
    said = Building().verdict("SHIFT 3 TO 1", "APPEND 121 TO 1")
    assert said.legal and said.to_json()["said"].startswith("Legal")


def test_an_illegal_construction_names_each_bad_step() -> None:
    # Step 1 shifts 3 into 3 (a Shift makes a different digit): refused, skipped. Step 2 places 66,
    # but no 6 is among 0 1 2 3 4 5. Step 3 mirrors string 1 with no Mirror held. Step 4 places 0 on
    # string 2: legal, so nothing is said of it.
    said = Building().verdict("SHIFT 3 TO 3", "APPEND 66 TO 2", "MIRROR 1", "APPEND 0 TO 2")
    found = [(one.code, one.text, one.at) for one in said.findings]
    assert found == [
        (
            "shift_to_same_digit",
            "step 1 (shift): Shift changes a digit into a different one, not 3 into 3",
            "move-construction",
        ),
        (
            "digits_missing",
            "step 2 (append): 66 not among this round's unplaced digits (left: 012345)",
            "move-construction",
        ),
        ("item_not_held", "step 3 (mirror): you hold no unused Mirror", "move-construction"),
    ]
