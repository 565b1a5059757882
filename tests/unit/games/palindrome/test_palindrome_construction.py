"""Construction: appends, every item's effect and every misuse, on bare positions and in play."""

from __future__ import annotations

import pytest
from palindrome_support import (
    EVEN_PACKS,
    GAME,
    append,
    bench_after,
    bid,
    card,
    parse,
    play,
    start,
    steps,
    use,
)
from pydantic import ValidationError

from game_core.errors import Reason

# -- effects ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("strings", "digits", "items", "payload", "expected_strings", "expected_left"),
    [
        # the rule text: 123, 456, 789 and pack 235 can become 12332, 4565, 789
        (
            ["123", "456", "789"],
            "235",
            [],
            steps(append(1, "32"), append(2, "5")),
            ["12332", "4565", "789"],
            "",
        ),
        # and with Duplicate (of the 3): 123332, 4565, 789
        (
            ["123", "456", "789"],
            "235",
            ["Duplicate"],
            steps(use("duplicate", digit="3"), append(1, "332"), append(2, "5")),
            ["123332", "4565", "789"],
            "",
        ),
        # digits not placed are left over (and lost unless Keep)
        (["", "", ""], "235", [], steps(append(3, "5")), ["", "", "5"], "23"),
        # appends go on in the order the steps give them
        (
            ["", "", ""],
            "1234",
            [],
            steps(append(1, "4"), append(1, "1"), append(1, "3")),
            ["413", "", ""],
            "2",
        ),
        # nothing at all
        (["7", "", ""], "235", [], steps(), ["7", "", ""], "235"),
        # Shift: the unplaced 2 becomes a 9
        (
            ["1", "", ""],
            "235",
            ["Shift"],
            steps(use("shift", digit="2", to="9"), append(1, "935")),
            ["1935", "", ""],
            "",
        ),
        # Insert: the string takes digits at any position for the later steps
        (
            ["1221", "", ""],
            "33",
            ["Insert"],
            steps(use("insert", string=1), append(1, "33", 3)),
            ["123321", "", ""],
            "",
        ),
        (
            ["1221", "", ""],
            "33",
            ["Insert"],
            steps(use("insert", string=1), append(1, "3", 1)),
            ["31221", "", ""],
            "3",
        ),
        (
            ["1221", "", ""],
            "3",
            ["Insert"],
            steps(use("insert", string=1), append(1, "3", 5)),
            ["12213", "", ""],
            "",
        ),
        (["", "", ""], "3", ["Insert"], steps(use("insert", string=2), append(2, "3", 1)), ["", "3", ""], ""),
        # an Insert string still takes digits at its end without a position
        (
            ["12", "", ""],
            "3",
            ["Insert"],
            steps(use("insert", string=1), append(1, "3")),
            ["123", "", ""],
            "",
        ),
        # two Inserts: two strings
        (
            ["11", "22", ""],
            "34",
            ["Insert", "Insert"],
            steps(use("insert", string=1), use("insert", string=2), append(1, "3", 2), append(2, "4", 2)),
            ["131", "242", ""],
            "",
        ),
        # a second Insert on the same string is legal and does nothing more
        (
            ["11", "", ""],
            "3",
            ["Insert", "Insert"],
            steps(use("insert", string=1), use("insert", string=1), append(1, "3", 2)),
            ["131", "", ""],
            "",
        ),
        # Eraser: any digit of any string (of any round)
        (["12345", "", ""], "", ["Eraser"], steps(use("eraser", string=1, position=3)), ["1245", "", ""], ""),
        (["", "9", ""], "", ["Eraser"], steps(use("eraser", string=2, position=1)), ["", "", ""], ""),
        # Swap: two positions of one string
        (["12", "", ""], "", ["Swap"], steps(use("swap", string=1, first=1, second=2)), ["21", "", ""], ""),
        (
            ["", "", "1232"],
            "",
            ["Swap"],
            steps(use("swap", string=3, first=4, second=2)),
            ["", "", "1232"],
            "",
        ),
        (
            ["", "", "1223"],
            "",
            ["Swap"],
            steps(use("swap", string=3, first=4, second=1)),
            ["", "", "3221"],
            "",
        ),
        # Mirror: 123 -> 123321 (the rulings' example); after an append it mirrors the new string
        (["123", "", ""], "", ["Mirror"], steps(use("mirror", string=1)), ["123321", "", ""], ""),
        (
            ["12", "", ""],
            "3",
            ["Mirror"],
            steps(append(1, "3"), use("mirror", string=1)),
            ["123321", "", ""],
            "",
        ),
        # Mirror of an empty string is legal and does nothing
        (["", "5", ""], "", ["Mirror"], steps(use("mirror", string=1)), ["", "5", ""], ""),
        # Clone: a copy of another string as it is at that step
        (["12", "34", ""], "", ["Clone"], steps(use("clone", string=3, source=1)), ["12", "34", "12"], ""),
        (
            ["12", "34", ""],
            "5",
            ["Clone"],
            steps(append(2, "5"), use("clone", string=1, source=2)),
            ["12345", "345", ""],
            "",
        ),
        (["12", "", ""], "", ["Clone"], steps(use("clone", string=1, source=2)), ["12", "", ""], ""),
        # Duplicate then Duplicate again (two copies): three 7s from one
        (
            ["", "", ""],
            "7",
            ["Duplicate", "Duplicate"],
            steps(use("duplicate", digit="7"), use("duplicate", digit="7"), append(1, "777")),
            ["777", "", ""],
            "",
        ),
        # a digit made by Shift can be duplicated
        (
            ["", "", ""],
            "1",
            ["Shift", "Duplicate"],
            steps(use("shift", digit="1", to="8"), use("duplicate", digit="8"), append(2, "88")),
            ["", "88", ""],
            "",
        ),
    ],
)
def test_effects(strings, digits, items, payload, expected_strings, expected_left):
    bench, reasons = bench_after(strings, digits, items, payload)
    assert reasons == []
    assert bench.strings == expected_strings
    assert "".join(sorted(bench.pool)) == expected_left


def test_keep_marks_the_leftovers_kept_and_a_second_keep_is_legal():
    bench, reasons = bench_after(["", "", ""], "235", ["Keep", "Keep"], steps(use("keep"), append(1, "2"), use("keep")))
    assert reasons == []
    assert bench.keep and bench.used == ["Keep", "Keep"]
    assert "".join(sorted(bench.pool)) == "35"


def test_every_use_is_recorded_in_order():
    bench, _ = bench_after(
        ["1", "", ""],
        "2",
        ["Mirror", "Shift"],
        steps(use("shift", digit="2", to="3"), use("mirror", string=1)),
    )
    assert bench.used == ["Shift", "Mirror"]


# -- misuse --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("strings", "digits", "items", "payload", "expected"),
    [
        # appends
        (
            ["", "", ""],
            "235",
            [],
            steps(append(4, "2")),
            ["step 1 (append): there is no string 4 (strings are 1 to 3)"],
        ),
        (
            ["", "", ""],
            "235",
            [],
            steps(append(0, "2")),
            ["step 1 (append): there is no string 0 (strings are 1 to 3)"],
        ),
        (
            ["", "", ""],
            "235",
            [],
            steps(append(1, "22")),
            ["step 1 (append): 2 not among this round's unplaced digits (left: 235)"],
        ),
        (
            ["", "", ""],
            "235",
            [],
            steps(append(1, "23"), append(2, "3")),
            ["step 2 (append): 3 not among this round's unplaced digits (left: 5)"],
        ),
        (
            ["", "", ""],
            "",
            [],
            steps(append(1, "9")),
            ["step 1 (append): 9 not among this round's unplaced digits (left: none)"],
        ),
        (
            ["12", "", ""],
            "3",
            [],
            steps(append(1, "3", 1)),
            ["step 1 (append): string 1 takes digits only at its end (no Insert was used on it before)"],
        ),
        # Insert works for the steps after it only, and only on its string
        (
            ["12", "", ""],
            "3",
            ["Insert"],
            steps(append(1, "3", 1), use("insert", string=1)),
            ["step 1 (append): string 1 takes digits only at its end (no Insert was used on it before)"],
        ),
        (
            ["12", "4", ""],
            "3",
            ["Insert"],
            steps(use("insert", string=1), append(2, "3", 1)),
            ["step 2 (append): string 2 takes digits only at its end (no Insert was used on it before)"],
        ),
        (
            ["12", "", ""],
            "3",
            ["Insert"],
            steps(use("insert", string=1), append(1, "3", 4)),
            ["step 2 (append): string 1 has no position 4 (1 to 3)"],
        ),
        (
            ["12", "", ""],
            "3",
            ["Insert"],
            steps(use("insert", string=1), append(1, "3", 0)),
            ["step 2 (append): string 1 has no position 0 (1 to 3)"],
        ),
        (
            ["", "", ""],
            "",
            [],
            steps(use("insert", string=1)),
            ["step 1 (insert): you hold no unused Insert"],
        ),
        (
            ["", "", ""],
            "",
            ["Insert"],
            steps(use("insert", string=5)),
            ["step 1 (insert): there is no string 5 (strings are 1 to 3)"],
        ),
        # Duplicate
        (
            ["", "", ""],
            "235",
            [],
            steps(use("duplicate", digit="2")),
            ["step 1 (duplicate): you hold no unused Duplicate"],
        ),
        (
            ["", "", ""],
            "235",
            ["Duplicate"],
            steps(use("duplicate", digit="7")),
            ["step 1 (duplicate): there is no unplaced 7 among this round's digits to duplicate"],
        ),
        (
            ["", "", ""],
            "235",
            ["Duplicate"],
            steps(append(1, "2"), use("duplicate", digit="2")),
            ["step 2 (duplicate): there is no unplaced 2 among this round's digits to duplicate"],
        ),
        # Shift
        (
            ["", "", ""],
            "235",
            ["Shift"],
            steps(use("shift", digit="2", to="2")),
            ["step 1 (shift): Shift changes a digit into a different one, not 2 into 2"],
        ),
        (
            ["", "", ""],
            "235",
            ["Shift"],
            steps(use("shift", digit="9", to="9")),
            [
                "step 1 (shift): there is no unplaced 9 among this round's digits to shift",
                "step 1 (shift): Shift changes a digit into a different one, not 9 into 9",
            ],
        ),
        # Eraser
        (
            ["123", "", ""],
            "",
            ["Eraser"],
            steps(use("eraser", string=1, position=4)),
            ["step 1 (eraser): string 1 has no position 4 (1 to 3)"],
        ),
        (
            ["123", "", ""],
            "",
            ["Eraser"],
            steps(use("eraser", string=2, position=1)),
            ["step 1 (eraser): string 2 is empty, it has no position 1"],
        ),
        # Swap
        (
            ["123", "", ""],
            "",
            ["Swap"],
            steps(use("swap", string=1, first=2, second=2)),
            ["step 1 (swap): Swap needs two different positions, not 2 twice"],
        ),
        (
            ["123", "", ""],
            "",
            ["Swap"],
            steps(use("swap", string=1, first=1, second=5)),
            ["step 1 (swap): string 1 has no position 5 (1 to 3)"],
        ),
        # Mirror: one use per item
        (
            ["1", "", ""],
            "",
            ["Mirror"],
            steps(use("mirror", string=1), use("mirror", string=1)),
            ["step 2 (mirror): you hold no unused Mirror"],
        ),
        # Keep
        (["", "", ""], "1", [], steps(use("keep")), ["step 1 (keep): you hold no unused Keep"]),
        # Clone
        (
            ["1", "", ""],
            "",
            ["Clone"],
            steps(use("clone", string=1, source=1)),
            ["step 1 (clone): Clone copies another string onto string 1, not the string itself"],
        ),
        (
            ["1", "", ""],
            "",
            ["Clone"],
            steps(use("clone", string=1, source=4)),
            ["step 1 (clone): there is no source string 4 (strings are 1 to 3)"],
        ),
        # every error of the list is reported, each naming its step
        (
            ["1", "", ""],
            "23",
            ["Mirror"],
            steps(
                append(1, "4"),
                use("swap", string=1, first=1, second=2),
                append(2, "23"),
                use("mirror", string=9),
            ),
            [
                "step 1 (append): 4 not among this round's unplaced digits (left: 23)",
                "step 2 (swap): you hold no unused Swap",
                "step 2 (swap): string 1 has no position 2 (1 to 1)",
                "step 4 (mirror): there is no string 9 (strings are 1 to 3)",
            ],
        ),
    ],
)
def test_misuse(strings, digits, items, payload, expected):
    _, reasons = bench_after(strings, digits, items, payload)
    assert [reason.text for reason in reasons] == expected
    assert [reason.code for reason in reasons] == [code_of(text) for text in expected]


CODES = {
    "you hold no unused": "item_not_held",
    "not among this round's unplaced digits": "digits_missing",
    "there is no unplaced": "digit_not_unplaced",
    "changes a digit into a different one": "shift_to_same_digit",
    "has no position": "position_unknown",
    "is empty, it has no position": "position_unknown",
    "needs two different positions": "swap_same_position",
    "copies another string": "clone_onto_itself",
    "there is no string": "string_unknown",
    "there is no source string": "string_unknown",
    "takes digits only at its end": "insert_needed",
}


def code_of(text: str) -> str:
    """The code each refusal text of a construction step is given."""
    [code] = {code for fragment, code in CODES.items() if fragment in text}
    return code


@pytest.mark.parametrize(
    "payload",
    [
        steps({"action": "append", "string": 1, "digits": ""}),
        steps({"action": "append", "string": 1, "digits": "1a"}),
        steps({"action": "append", "string": 1}),
        steps({"action": "teleport", "string": 1}),
        steps({"action": "duplicate", "digit": "12"}),
        steps({"action": "shift", "digit": "1"}),
        steps({"action": "mirror", "string": 1, "extra": True}),
        {"steps": [], "note": "x"},
    ],
)
def test_malformed_constructions_are_refused_by_the_model(payload):
    with pytest.raises(ValidationError):
        parse("construction", payload)


# -- in play: timing, ownership, loss and Keep -----------------------------------------------------

ITEMS_MM5 = {
    1: ["Mirror", "Keep"],
    2: ["Duplicate", "Clone"],
    3: ["Insert", "Eraser"],
    4: ["Swap", "Shift"],
    5: ["Mirror", "Keep"],
}


def mm5(players=("A", "B")):
    return start(list(players), rule_set="mm5", packs=dict.fromkeys(range(1, 6), EVEN_PACKS), items=ITEMS_MM5)


def test_an_item_is_usable_in_the_construction_of_the_round_it_was_won():
    state = mm5()
    # A wins pack 1 (01234) and the Mirror in round 1 bidding
    state = play(state, {"A": {"bid": bid(card(9, pack=1), card(0, item=1))}})
    payload = parse("construction", steps(append(1, "12"), use("mirror", string=1)))
    assert GAME.check(state, "A", "construction", payload) == []
    # B won nothing and holds nothing
    assert [reason.text for reason in GAME.check(state, "B", "construction", payload)] == [
        "step 1 (append): 12 not among this round's unplaced digits (left: none)",
        "step 2 (mirror): you hold no unused Mirror",
    ]


def test_an_item_won_in_the_same_phase_is_not_yet_usable_and_a_used_one_is_gone():
    state = mm5()
    state = play(state, {"A": {"bid": bid(card(9, pack=1), card(0, item=1))}})
    # phase "Round 2 bidding and round 1 construction": A uses the Mirror and wins the Duplicate
    state = play(
        state,
        {
            "A": {
                "construction": steps(append(1, "12"), use("mirror", string=1)),
                "bid": bid(card(9, pack=1), card(3, item=1)),
            }
        },
    )
    assert state.seats["A"].strings == ["1221", "", ""]
    # round 2 construction: the Mirror is used up; the Duplicate (won in round 2) is usable
    mirror = parse("construction", steps(use("mirror", string=1)))
    assert GAME.check(state, "A", "construction", mirror) == [
        Reason("item_not_held", "step 1 (mirror): you hold no unused Mirror")
    ]
    duplicate = parse("construction", steps(use("duplicate", digit="0"), append(2, "00")))
    assert GAME.check(state, "A", "construction", duplicate) == []
    items = [(i.name, i.round, i.used_in_round) for i in state.seats["A"].items]
    assert items == [("Mirror", 1, 1), ("Duplicate", 2, None)]


def test_no_construction_loses_the_rounds_digits():
    state = mm5()
    state = play(state, {"A": {"bid": bid(card(9, pack=1))}})
    assert state.seats["A"].digits == "01234"
    state = play(state, {})
    assert state.seats["A"].strings == ["", "", ""]
    assert state.seats["A"].digits == ""
    record = state.seats["A"].constructions[0]
    assert (record.round, record.construction, record.digits, record.discarded, record.kept) == (
        1,
        None,
        "01234",
        "01234",
        "",
    )


def test_unplaced_digits_are_discarded():
    state = mm5()
    state = play(state, {"A": {"bid": bid(card(9, pack=1))}})
    state = play(state, {"A": {"construction": steps(append(2, "40"))}})
    assert state.seats["A"].strings == ["", "40", ""]
    assert state.seats["A"].constructions[0].discarded == "123"
    assert state.seats["A"].digits == ""


def test_keep_carries_the_unplaced_digits_into_the_next_round_digits():
    state = mm5()
    # A wins pack 1 and Keep (item 2)
    state = play(state, {"A": {"bid": bid(card(9, pack=1), card(1, item=2))}})
    # A keeps 234 and wins pack 2 (56789) in round 2
    state = play(state, {"A": {"construction": steps(append(1, "01"), use("keep")), "bid": bid(card(5, pack=2))}})
    assert state.seats["A"].digits == "23456789"
    assert state.seats["A"].constructions[0].kept == "234"
    # the kept digits are this round's digits now
    payload = parse("construction", steps(append(1, "2"), append(2, "39")))
    assert GAME.check(state, "A", "construction", payload) == []


def test_keep_in_the_last_round_loses_the_digits():
    state = start(
        ["A", "B"],
        rule_set="mm5",
        packs=dict.fromkeys(range(1, 6), EVEN_PACKS),
        items={5: ["Keep", "Mirror"]},
    )
    for _ in range(4):
        state = play(state, {})
    state = play(state, {"A": {"bid": bid(card(9, pack=1), card(8, item=1))}})
    assert GAME.open_phase(state).name == "Round 5 construction"
    state = play(state, {"A": {"construction": steps(append(1, "1"), use("keep"))}})
    record = state.seats["A"].constructions[-1]
    assert (record.kept, record.discarded) == ("", "0234")
    assert GAME.open_phase(state) is None
