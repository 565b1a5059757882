"""Plain words wherever a player reads the page (issue 30 item 3): the values a field takes said
before a first try, no choice the rules do not offer, the sealed receipt folded away with one
sentence on what it proves, and a refusal beside its field naming it in words."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from game_core.games import registry
from game_core.service.page import inputs, play, render
from game_core.service.page.forms import Group
from game_core.service.page.play import forms

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from crates_driver import Table  # noqa: E402
from test_page_moves import MID, form, multipliers  # noqa: E402


def crates_form(kind: str) -> str:
    """The page of Ada in a Crates match (its Pregame), cut to the form of `kind`."""
    table = Table.open()
    ada = play.sign_in(table.ports, MID, "secret-1")
    page = render.page(play.show(table.ports, MID, ada.cookie))
    return page[page.index(f'<form id="move-{kind}"') :].split("</form>")[0]


def test_the_multipliers_allowed_are_said_before_a_first_try() -> None:
    [group] = forms(registry.load("crates"), ("multipliers",), False)[0].parts
    # RULINGS: the multipliers are a permutation of [-1, -1, 0, 1, 1, 2] over rounds 1-6.
    assert isinstance(group, Group)
    assert group.legend == "Multipliers: The six multipliers -1, -1, 0, 1, 1, 2 in any order, round 1's first."
    assert "<legend>Multipliers: The six multipliers -1, -1, 0, 1, 1, 2 in any order" in crates_form("multipliers")


def test_a_choice_offers_no_blank_the_rules_do_not_give() -> None:
    [round_form] = forms(registry.load("crates"), ("round",), False)
    shown = inputs.inputs("move-round", round_form, inputs.Given({}, ()), inputs.Choices({"ada": "Ada"}, "ada"))
    # Ground: the rules' default is stone (a round naming none is on stone), so a blank says so.
    ground = re.search(r'<select id="move-round-ground"[^>]*>(.*?)</select>', shown)
    assert ground is not None
    assert re.findall(r"<option[^>]*>([^<]*)</option>", ground.group(1)) == [
        "(as the rules default: stone)",
        "rubber",
        "stone",
        "ice",
    ]
    # A push's direction has no default: its blank is the row left empty, not a rule.
    direction = re.search(r'<select id="move-round-pushes-0-direction"[^>]*>(.*?)</select>', shown)
    assert direction is not None
    assert re.findall(r"<option[^>]*>([^<]*)</option>", direction.group(1)) == ["(none)", "left", "right"]
    assert "rules default)" not in shown


def test_the_receipt_is_folded_with_what_it_proves_and_names_no_command() -> None:
    table = Table.open()
    ada = play.sign_in(table.ports, MID, "secret-1")
    play.send_move(table.ports, MID, ada.cookie, form(ada, "multipliers", multipliers("2", "1", "1", "0", "-1", "-1")))
    page = render.page(play.show(table.ports, MID, ada.cookie))
    folded = page[page.index('<details class="receipt">') :].split("</details>")[0]
    assert "<summary>Sealed receipt of your multipliers</summary>" in folded
    assert '<pre class="sealed" id="receipt-multipliers">{' in folded  # the JSON, to keep
    assert "the move counted as yours must open this seal exactly" in folded
    assert '<div class="copy" id="copy-receipt-multipliers" data-copies="receipt-multipliers"></div>' in folded
    assert "match-verify" not in page  # a command a player on the page does not have


def test_a_reason_beside_its_field_names_it_in_words() -> None:
    table = Table.open()
    ada = play.sign_in(table.ports, MID, "secret-1")
    sent = form(ada, "multipliers", multipliers("2", "1", "1", "0", "-1", "x"))
    page = render.page(play.send_move(table.ports, MID, ada.cookie, sent))
    # "multipliers.5" is the sixth multiplier: numbered from 1 in words.
    beside = '<span class="error" id="move-multipliers-multipliers-5-error">multipliers, number 6: Input should be'
    assert beside in page
    assert "multipliers.5:" not in page
