"""The page's check of a move (issue 30 item 2) on the fakes, Pushing Crates with Ada and Bo: the
same parse and rules as the submit path, one read and nothing stored, every reason in words and
tied to the page element it is about. Expected reasons are worked by hand from RULINGS.md's
Pushing Crates section (multipliers a permutation of -1 -1 0 1 1 2; pushes up to 3 a round, one
more per garnet; each names a crate and left or right; rubber at most once a match, ice twice)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import pytest

from game_core.errors import Unauthorized
from game_core.service.page import check, play

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from crates_driver import HOUR, Table  # noqa: E402

MID = "m-000000000001"


def form(player: Any, kind: str, fields: dict[str, str], phase: str = "Pregame", number: int = 1) -> dict[str, str]:
    """The form as the page's script posts it to the check route (no delivery key)."""
    hidden = {"csrf": player.csrf, "kind": kind, "phase": phase, "number": str(number)}
    return hidden | {f"f.{name}": value for name, value in fields.items()}


def multipliers(*values: str) -> dict[str, str]:
    return {f"multipliers.{i}": value for i, value in enumerate(values)}


def stored(table: Table) -> dict[str, Any]:
    """Everything the memory store holds but its read log: a check must leave it as it was."""
    return copy.deepcopy({name: value for name, value in vars(table.fakes.store).items() if name != "reads"})


def verdict(table: Table, player: Any, fields: dict[str, str]) -> list[tuple[str, str, str]]:
    """The check's reasons as (code, words, element id), asserting it read once and stored nothing."""
    before = stored(table)
    table.fakes.store.reads.clear()
    said = check.check_move(table.ports, MID, player.cookie, fields)
    assert table.fakes.store.reads == ["view", "get"]  # the page's one read (a view reads its header by get)
    assert stored(table) == before
    assert said.legal == (not said.findings)
    return [(one.code, one.text, one.at) for one in said.findings]


def in_round_1() -> tuple[Table, Any]:
    """Both players' multipliers in, the pregame resolved: Round 1 open (phase number 2)."""
    table = Table.open()
    for secret in ("secret-1", "secret-2"):
        player = play.sign_in(table.ports, MID, secret)
        play.send_move(
            table.ports, MID, player.cookie, form(player, "multipliers", multipliers(*"2 1 1 0 -1 -1".split()))
        )
    table.resolve_at_deadline()
    return table, play.sign_in(table.ports, MID, "secret-1")


def test_a_legal_move_has_no_reasons_and_stores_nothing_and_then_is_taken_when_sent() -> None:
    table, ada = in_round_1()
    pushes = {"pushes.0.crate": "bo", "pushes.0.direction": "left", "ground": "ice"}
    sent = form(ada, "round", pushes, "Round 1", 2)
    assert verdict(table, ada, sent) == []
    assert table.fakes.store.submissions(MID, 2) == {}
    reply = check.check_move(table.ports, MID, ada.cookie, sent).to_json()
    assert reply["legal"] is True and reply["reasons"] == [] and reply["said"].startswith("Legal")
    # What the check called legal, the send takes.
    assert play.send_move(table.ports, MID, ada.cookie, sent | {"delivery": play.delivery_key()}).refusal is None
    assert table.fakes.store.submissions(MID, 2)["ada"]["round"]["pushes"] == [{"crate": "bo", "direction": "left"}]


def test_multipliers_not_the_rules_six_values_are_refused_for_the_whole_form() -> None:
    table = Table.open()
    ada = play.sign_in(table.ports, MID, "secret-1")
    # 2 2 1 0 -1 -1 has two 2s and one 1: not a permutation of -1 -1 0 1 1 2.
    [(code, text, at)] = verdict(table, ada, form(ada, "multipliers", multipliers(*"2 2 1 0 -1 -1".split())))
    assert "permutation of [-1, -1, 0, 1, 1, 2]" in text and "[2, 2, 1, 0, -1, -1]" in text
    assert at == "move-multipliers-multipliers"  # the six together, no one input: the script shows it under the form


def test_a_word_where_a_multiplier_goes_is_said_beside_the_sixth_input() -> None:
    table = Table.open()
    ada = play.sign_in(table.ports, MID, "secret-1")
    found = verdict(table, ada, form(ada, "multipliers", multipliers(*"2 1 1 0 -1 x".split())))
    # The sixth value (index 5) is no number: named in words, tied to that input's id.
    assert found == [
        ("int_type", "multipliers, number 6: Input should be a valid integer", "move-multipliers-multipliers-5")
    ]


def test_a_push_without_a_direction_is_said_beside_its_direction() -> None:
    table, ada = in_round_1()
    found = verdict(table, ada, form(ada, "round", {"pushes.1.crate": "bo"}, "Round 1", 2))
    # Row 2 names a crate but neither left nor right (each push names one: RULINGS), row 1 is left
    # blank: the reason names row 2, in words and by its input (the list sent holds it first).
    assert found == [("missing", "pushes, number 2, direction: Field required", "move-round-pushes-1-direction")]


def test_a_crate_of_nobody_in_the_match_is_said_beside_that_rows_crate() -> None:
    table, ada = in_round_1()
    rows = {
        "pushes.0.crate": "bo",
        "pushes.0.direction": "left",
        "pushes.2.crate": "zed",
        "pushes.2.direction": "right",
    }
    found = verdict(table, ada, form(ada, "round", rows, "Round 1", 2))
    # Each push names a player's crate; Zed plays in no seat here. Written in row 3.
    assert [at for _, _, at in found] == ["move-round-pushes-2-crate"]
    assert found == [
        ("crate_unknown", "push 3 names crate 'zed', which is not a player of this match", "move-round-pushes-2-crate")
    ]


def test_four_pushes_without_a_garnet_are_refused_for_the_form() -> None:
    table, ada = in_round_1()
    assert table.fakes.store.garnets("ada") in (None, (0, 0))  # Ada holds no garnet
    rows = {f"pushes.{i}.{part}": value for i in range(4) for part, value in (("crate", "bo"), ("direction", "left"))}
    [(code, text, at)] = verdict(table, ada, form(ada, "round", rows, "Round 1", 2))
    # Up to 3 pushes a round, one more per garnet: a fourth costs 1 garnet, and Ada's balance is 0.
    assert code == "garnets_short" and text.endswith("but your balance is 0") and at == "move-round"


def test_rubber_a_second_time_is_said_beside_the_ground() -> None:
    table, ada = in_round_1()
    bo = play.sign_in(table.ports, MID, "secret-2")
    play.send_move(
        table.ports,
        MID,
        ada.cookie,
        form(ada, "round", {"ground": "rubber"}, "Round 1", 2) | {"delivery": play.delivery_key()},
    )
    play.send_move(
        table.ports,
        MID,
        bo.cookie,
        form(bo, "round", {"ground": "stone"}, "Round 1", 2) | {"delivery": play.delivery_key()},
    )
    table.resolve_at_deadline()
    ada = play.sign_in(table.ports, MID, "secret-1")
    # Rubber at most once a match; Ada chose it in round 1: a second time is refused, at the ground.
    [(code, text, at)] = verdict(table, ada, form(ada, "round", {"ground": "rubber"}, "Round 2", 3))
    assert (code, at) == ("ground_used_up", "move-round-ground")
    assert text == "rubber may be chosen at most once a match, and you already chose it in round 1"
    assert verdict(table, ada, form(ada, "round", {"ground": "ice"}, "Round 2", 3)) == []  # ice is left


def test_a_move_after_the_deadline_is_late() -> None:
    table, ada = in_round_1()
    table.fakes.clock.advance(HOUR)  # past Round 1's deadline
    [(code, _text, at)] = verdict(table, ada, form(ada, "round", {"ground": "stone"}, "Round 1", 2))
    assert (code, at) == ("late", "move-round")


def test_a_form_not_from_the_sessions_page_is_refused_and_nothing_read_is_said() -> None:
    table = Table.open()
    ada = play.sign_in(table.ports, MID, "secret-1")
    bo = play.sign_in(table.ports, MID, "secret-2")
    sent = form(ada, "multipliers", multipliers(*"2 1 1 0 -1 -1".split())) | {"csrf": bo.csrf}
    with pytest.raises(Unauthorized):
        check.check_move(table.ports, MID, ada.cookie, sent)
