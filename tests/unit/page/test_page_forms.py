"""Each kind's form from its JSON schema (`match-schemas`), and the fields read back: what the
schema bounds the browser checks too; what no input can say is written in the game's grammar."""

from __future__ import annotations

import pytest
from page_support import played

from game_core.errors import Malformed
from game_core.games import registry
from game_core.service.page.forms import FIELD_PREFIX, Group, Input, fields_of, form_for, rows_for, submission_of
from game_core.service.page.play import forms


def the_form(game_id: str, kind: str, actions: bool = False):
    return forms(registry.load(game_id), (kind,), actions)[0]


def inputs(game_id: str, kind: str, actions: bool = False) -> dict[str, Input]:
    return {one.name: one for one in the_form(game_id, kind, actions).inputs}


def test_crates_round_is_rows_of_pushes_and_a_choice_of_ground() -> None:
    found = inputs("crates", "round")
    # RoundSubmission: pushes (a list of {crate, direction: left|right}), ground (rubber|stone|ice)
    assert found["ground"].widget == "select" and found["ground"].options == ("rubber", "stone", "ice")
    assert not found["ground"].required  # it has a default (stone)
    assert found["pushes.0.direction"].options == ("left", "right")
    assert found["pushes.11.crate"].widget == "participant"  # 12 rows: no maxItems bounds them
    assert "pushes.12.crate" not in found


def test_fixed_few_numbers_get_an_input_each_and_a_few_values_are_a_choice_of_them() -> None:
    multipliers = the_form("crates", "multipliers")
    [group] = multipliers.parts
    assert isinstance(group, Group) and [one.name for one in group.inputs] == [f"multipliers.{i}" for i in range(6)]
    # Each multiplier is one of -1, 0, 1, 2 (RULINGS: a permutation of -1 -1 0 1 1 2): chosen by a
    # click, none chosen at first (the browser asks for each), read back as a number.
    assert all(one.widget == "select" and one.required and one.integers for one in group.inputs)
    assert {(one.options, one.blank) for one in group.inputs} == {(("-1", "0", "1", "2"), "(choose one)")}
    fields = {f"{FIELD_PREFIX}multipliers.{i}": value for i, value in enumerate("2 1 1 0 -1 -1".split())}
    game = registry.load("crates")
    assert submission_of(game, multipliers, fields, ("multipliers",), {}) == {"multipliers": [2, 1, 1, 0, -1, -1]}
    # Clubs' puzzle request: puzzle 1, 2 or 3 (minimum 1, maximum 3), required: a choice of three
    puzzle = inputs("clubs", "puzzle", actions=True)["puzzle"]
    assert (puzzle.widget, puzzle.options, puzzle.required) == ("select", ("1", "2", "3"), True)
    # Clubs' transfer: 1 to 1,000 garnets, too many to list: typed
    garnets = inputs("clubs", "transfer", actions=True)["garnets"]
    assert (garnets.widget, garnets.minimum, garnets.maximum) == ("number", 1, 1000)
    # Clubs' answer: at most 500 characters
    assert inputs("clubs", "answer", actions=True)["answer"].max_length == 500


def test_a_list_of_words_is_one_box_and_a_kind_of_mixed_instructions_is_written_in_the_grammar() -> None:
    cards = inputs("clubs", "build")["cards"]
    assert (cards.widget, cards.required) == ("list", True)
    # The schema's words on a card, then the count: minItems 1, maxItems 5.
    assert cards.hint.startswith("Cards as TH (rank 2-9, T, J, Q, K, A, then suit C, S, H, D)")
    assert cards.hint.endswith(" 1 to 5 words, separated by spaces or commas.")
    construction = the_form("palindrome", "construction")
    [box] = construction.inputs
    assert box.widget == "lines" and construction.help  # the game's own help beside it


def test_fields_read_back_as_the_webhooks_json() -> None:
    game = registry.load("clubs")
    build = form_for(game, "build", game.submissions["build"].model_json_schema(), [])
    fields = {FIELD_PREFIX + "cards": " 2C, 3C  4C "}
    assert submission_of(game, build, fields, ("build",), {}) == {"cards": ["2C", "3C", "4C"]}
    guess = form_for(game, "guess", game.submissions["guess"].model_json_schema(), [])
    fields = {FIELD_PREFIX + "guesses.1.participant": "bo", FIELD_PREFIX + "guesses.1.cards": "AS KS"}
    assert submission_of(game, guess, fields, ("guess",), {}) == {
        "guesses": [{"participant": "bo", "cards": ["AS", "KS"]}]
    }


def test_the_grammar_box_is_read_by_the_games_own_grammar() -> None:
    game = registry.load("crates")
    round_form = form_for(game, "round", {"properties": {"odd": {"type": "object"}}}, [])  # no input can say it
    fields = {FIELD_PREFIX + "lines": "PUSH ada RIGHT\nGROUND ice"}
    assert submission_of(game, round_form, fields, ("round",), {"ada": "Ada"}) == {
        "pushes": [{"crate": "ada", "direction": "right"}],
        "ground": "ice",
    }
    try:
        submission_of(game, round_form, {FIELD_PREFIX + "lines": "JUMP"}, ("round",), {})
    except Malformed as error:
        assert error.reasons
    else:
        raise AssertionError("an unreadable line is refused")


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_every_kind_of_every_game_has_a_form(game_id: str) -> None:
    for kind in registry.load(game_id).submissions:
        assert the_form(game_id, kind).inputs, (game_id, kind)


def test_more_rows_when_more_stand_or_are_posted() -> None:
    # 12 rows at least; 14 pushes standing need 15 (one free); a posted row 19 needs 20.
    assert rows_for({}, None) == 12
    assert rows_for({}, {"pushes": [{}] * 14, "ground": "ice"}) == 15
    assert rows_for({FIELD_PREFIX + "pushes.19.crate": "ada", FIELD_PREFIX + "ground": "ice"}) == 20


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_every_move_the_bots_sent_fills_its_form_and_reads_back_the_same(game_id: str) -> None:
    game = registry.load(game_id)
    assert played(game_id).sent
    for kind, model in played(game_id).sent:
        sent = model.model_dump(mode="json")
        [form] = forms(game, (kind,), rows=rows_for({}, sent))
        fields = fields_of(game, form, sent)
        read = submission_of(game, form, fields, (kind,), {})
        # The same move: what the service keeps of it (its model's dump: defaults filled in) is equal.
        assert game.submissions[kind].model_validate(read).model_dump(mode="json") == sent, (kind, fields)
