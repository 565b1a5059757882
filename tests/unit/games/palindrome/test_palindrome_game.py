"""The timeline, the settings and their overrides, the draws, the state, and a whole match played
by hand."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from palindrome_support import EVEN_PACKS, EVEN_PACKS_MM8, GAME, append, bid, card, play, start, steps, use
from pydantic import ValidationError

from game_core.games.palindrome.packs import catalogue_pass, draw_items, draw_packs
from game_core.games.palindrome.rule_sets import CATALOGUE, RULE_SETS

# -- timeline --------------------------------------------------------------------------------------


def test_the_mm8_timeline():
    kinds = GAME.timeline(GAME.Settings())
    assert [(k.name, k.accepts) for k in kinds] == [
        ("Pregame", ()),
        ("Round 1 bidding", ("bid",)),
        ("Round 2 bidding and round 1 construction", ("bid", "construction")),
        ("Round 3 bidding and round 2 construction", ("bid", "construction")),
        ("Round 4 bidding and round 3 construction", ("bid", "construction")),
        ("Round 5 bidding and round 4 construction", ("bid", "construction")),
        ("Round 6 bidding and round 5 construction", ("bid", "construction")),
        ("Round 7 bidding and round 6 construction", ("bid", "construction")),
        ("Round 7 construction", ("construction",)),
    ]


def test_the_mm5_timeline():
    kinds = GAME.timeline(GAME.Settings(rule_set="mm5"))
    assert [(k.name, k.accepts) for k in kinds] == [
        ("Round 1 bidding", ("bid",)),
        ("Round 2 bidding and round 1 construction", ("bid", "construction")),
        ("Round 3 bidding and round 2 construction", ("bid", "construction")),
        ("Round 4 bidding and round 3 construction", ("bid", "construction")),
        ("Round 5 bidding and round 4 construction", ("bid", "construction")),
        ("Round 5 construction", ("construction",)),
    ]


def test_the_game_identity():
    assert (GAME.id, GAME.min_players, GAME.max_players) == ("palindrome", 2, 12)
    assert GAME.Settings().rule_set == "mm8"


def test_the_pregame_accepts_nothing_shows_no_round_and_waits_for_its_deadline():
    state = start(["A", "B", "C"])
    phase = GAME.open_phase(state)
    assert (phase.name, phase.accepts, phase.actors) == ("Pregame", (), ("A", "B", "C"))
    assert GAME.view(state, None)["public"]["round_log"] == []
    assert state.rounds == []
    state = play(state, {})
    assert GAME.open_phase(state).name == "Round 1 bidding"
    assert len(state.rounds) == 1 and len(state.rounds[0].packs) == 10


def test_mm5_opens_on_round_1_bidding_with_its_packs_and_two_items():
    state = start(["A", "B"], rule_set="mm5")
    assert GAME.open_phase(state).name == "Round 1 bidding"
    (first,) = state.rounds
    assert [len(p) for p in first.packs] == [5] * 10 and len(first.items) == 2


# -- settings --------------------------------------------------------------------------------------


def test_the_rule_sets_as_data():
    mm8, mm5 = RULE_SETS["mm8"], RULE_SETS["mm5"]
    assert (mm8.rounds, mm8.packs_per_round, mm8.pack_size, mm8.digit_minimum, mm8.items_per_round) == (
        7,
        10,
        3,
        2,
        1,
    )
    assert (mm8.garnet_value, mm8.pregame) == (5, True)
    assert (mm5.rounds, mm5.packs_per_round, mm5.pack_size, mm5.digit_minimum, mm5.items_per_round) == (
        5,
        10,
        5,
        3,
        2,
    )
    assert (mm5.garnet_value, mm5.pregame) == (0, False)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"rule_set": "mm9"}, "rule_set"),
        ({"packs": {1: EVEN_PACKS_MM8[:9]}}, "a round has 10 packs, not 9"),
        ({"packs": {1: EVEN_PACKS_MM8[:9] + ["7890"]}}, "pack 10 ('7890') is not 3 digits"),
        ({"packs": {1: EVEN_PACKS_MM8[:9] + ["7a9"]}}, "pack 10 ('7a9') is not 3 digits"),
        # each digit is there three times; 012 -> 111 and 789 -> 111 leave 0, 2, 7, 8, 9 twice: legal
        # but 012, 901 and 123 -> 555 leave one 0 (in 890), no 1, one 2 (in 234)
        (
            {"packs": {1: ["555", "345", "678", "555", "234", "567", "890", "555", "456", "789"]}},
            "digits 0, 1, 2 appear fewer than 2 times",
        ),
        (
            {"packs": {1: ["111", "345", "678", "111", "234", "567", "890", "123", "456", "789"]}},
            "digit 0 appears fewer than 2 times",
        ),
        ({"packs": {8: EVEN_PACKS_MM8}}, "packs: there is no round 8 (1 to 7)"),
        ({"packs": {0: EVEN_PACKS_MM8}}, "packs: there is no round 0 (1 to 7)"),
        ({"rule_set": "mm5", "packs": {1: EVEN_PACKS_MM8}}, "is not 5 digits"),
        # in mm5 every digit three times: 01234 -> 01230 leaves 4 four times, fine; but five
        # packs of 01234 replaced by 00000 leave 1-4 missing
        (
            {"rule_set": "mm5", "packs": {1: ["00000", "56789"] * 5}},
            "digits 1, 2, 3, 4 appear fewer than 3 times",
        ),
        ({"items": {1: ["Mirror", "Keep"]}}, "a round offers 1, not 2"),
        ({"items": {1: ["Teleport"]}}, "items"),
        ({"rule_set": "mm5", "items": {1: ["Mirror", "Mirror"]}}, "the items of one round must differ"),
        ({"rule_set": "mm5", "items": {6: ["Mirror", "Keep"]}}, "items: there is no round 6 (1 to 5)"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_overrides_are_refused(settings, message):
    with pytest.raises(ValidationError) as refused:
        GAME.Settings(**settings)
    assert message in str(refused.value)


def test_the_minimum_counts_exactly():
    GAME.Settings(packs={1: ["111"] + EVEN_PACKS_MM8[1:9] + ["111"]})


def test_good_overrides_fix_the_rounds_they_name_and_only_those():
    packs_r2 = ["987", "654", "321", "098", "765", "432", "109", "876", "543", "210"]
    settings = {"packs": {1: EVEN_PACKS_MM8, 2: packs_r2}, "items": {1: ["Swap"], 3: ["Keep"]}}
    state = start(["A", "B"], **settings)
    state = play(state, {})
    assert state.rounds[0].packs == EVEN_PACKS_MM8 and state.rounds[0].items == ["Swap"]
    state = play(state, {})
    assert state.rounds[1].packs == packs_r2 and state.rounds[1].items[0] not in ("Swap", "Keep")
    state = play(state, {})
    assert state.rounds[2].items == ["Keep"]


def test_an_mm5_round_may_repeat_an_item_of_an_earlier_round_but_not_within_itself():
    GAME.Settings(rule_set="mm5", items={1: ["Mirror", "Keep"], 2: ["Mirror", "Keep"]})


# -- draws -----------------------------------------------------------------------------------------


@given(st.sampled_from(["mm8", "mm5"]), st.integers(min_value=0, max_value=2**32))
def test_generated_packs_always_meet_the_digit_minimums(rule_set, seed):
    rules = RULE_SETS[rule_set]
    packs = draw_packs(rules, random.Random(seed))
    assert len(packs) == 10
    assert all(len(p) == rules.pack_size and p.isdigit() for p in packs)
    counts = Counter("".join(packs))
    assert all(counts[d] >= rules.digit_minimum for d in "0123456789")


def test_packs_are_deterministic_for_a_seed():
    rules = RULE_SETS["mm8"]
    assert draw_packs(rules, random.Random(5)) == draw_packs(rules, random.Random(5))


@given(st.integers(min_value=0, max_value=2**32))
def test_mm8_items_never_repeat_within_a_match(seed):
    pool, offered = list(CATALOGUE), []
    rng = random.Random(seed)
    for _ in range(7):
        items, pool = draw_items(pool, 1, rng)
        offered += items
    assert len(set(offered)) == 7


@given(st.integers(min_value=0, max_value=2**32))
def test_mm5_items_use_up_the_catalogue_before_repeating_and_a_round_never_repeats(seed):
    pool, rounds = list(CATALOGUE), []
    rng = random.Random(seed)
    for _ in range(5):
        items, pool = draw_items(pool, 2, rng)
        rounds.append(items)
    assert all(a != b for a, b in rounds)
    assert sorted(i for r in rounds[:4] for i in r) == sorted(CATALOGUE)


def test_a_round_drawing_across_the_end_of_the_catalogue_still_offers_two_different_items():
    items, pool = draw_items(["Keep"], 2, random.Random(0))
    assert items[0] == "Keep" and items[1] != "Keep"
    assert sorted(pool + [items[1]]) == sorted(CATALOGUE)


def offered_items(seed: int, **settings) -> list[list[str]]:
    """The items of every round of a match whose phases all resolve with no submissions."""
    state = start(["A", "B"], seed=seed, **settings)
    while GAME.open_phase(state) is not None:
        state = play(state, {}, seed=seed)
    return [r.items for r in state.rounds]


@pytest.mark.parametrize("seed", range(12))
def test_drawn_rounds_do_not_repeat_an_item_the_host_fixed_for_a_later_round(seed):
    # Rulings: "Items are drawn without repeats until the catalogue is used up". mm8 offers 7
    # items from a catalogue of 8, so the catalogue is never used up: all 7 differ, also when the
    # host fixes rounds 3, 5 and 7 and the other rounds are drawn. (Each of these seeds used to
    # draw one of the fixed items for an earlier round too: seed 0 Clone in round 1, seed 3 Keep.)
    items = offered_items(seed, items={3: ["Keep"], 5: ["Clone"], 7: ["Insert"]})
    assert [r[0] for r in items][2::2] == ["Keep", "Clone", "Insert"]
    assert len({r[0] for r in items}) == 7


@pytest.mark.parametrize("seed", range(12))
def test_mm5_draws_use_up_the_catalogue_around_a_host_fixed_round(seed):
    # mm5 offers 2 x 5 = 10 items. With round 2 fixed at Mirror and Keep, rounds 1 to 4 are the
    # first 8 items offered, so they are the whole catalogue without a repeat; round 5 then draws
    # from the full catalogue again (two different items).
    items = offered_items(seed, rule_set="mm5", items={2: ["Mirror", "Keep"]})
    assert items[1] == ["Mirror", "Keep"]
    assert sorted(i for r in items[:4] for i in r) == sorted(CATALOGUE)
    assert len(set(items[4])) == 2
    # fixed last: rounds 1 to 4 are drawn and still cover the catalogue; round 5 repeats after it
    items = offered_items(seed, rule_set="mm5", items={5: ["Mirror", "Keep"]})
    assert sorted(i for r in items[:4] for i in r) == sorted(CATALOGUE)
    assert items[4] == ["Mirror", "Keep"]


@pytest.mark.parametrize("seed", range(12))
def test_a_drawn_round_avoids_only_the_set_items_of_its_own_pass(seed):
    # Rulings: "a drawn round avoids the items set for rounds of the same pass through the
    # catalogue (the rounds before the catalogue is used up); a set round counts as drawn for that
    # pass". mm5 offers 2 items a round from a catalogue of 8: rounds 1-4 are the first pass,
    # round 5 starts the second. With round 4 set (first pass) and round 5 set (second pass),
    # rounds 1-3 draw their 6 items from the 6 the round-4 items leave, so rounds 1-4 are the
    # catalogue once each; round 5's items are not avoided (they repeat in a new pass). Before
    # this ruling the draws avoided rounds 4 and 5 alike, ran out of other items, and a drawn
    # round took Mirror or Keep before round 4 offered it again (10 of these 12 seeds).
    items = offered_items(seed, rule_set="mm5", items={4: ["Mirror", "Keep"], 5: ["Duplicate", "Shift"]})
    assert items[3] == ["Mirror", "Keep"] and items[4] == ["Duplicate", "Shift"]
    assert sorted(i for r in items[:4] for i in r) == sorted(CATALOGUE)


@pytest.mark.parametrize(
    ("rule_set", "round_number", "expected_pass"),
    [
        # mm8: 1 item a round, 8 in the catalogue: rounds 1-8 are one pass (the match has 7)
        ("mm8", 1, 0),
        ("mm8", 7, 0),
        # mm5: 2 items a round: rounds 1-4 are the first pass, round 5 the second
        ("mm5", 1, 0),
        ("mm5", 4, 0),
        ("mm5", 5, 1),
    ],
)
def test_the_pass_through_the_catalogue_of_a_round(rule_set, round_number, expected_pass):
    assert catalogue_pass(RULE_SETS[rule_set], round_number) == expected_pass


@given(st.integers(min_value=0, max_value=2**16))
def test_the_state_survives_json_through_a_played_match(seed):
    rng = random.Random(seed)
    state = start(["A", "B", "C"], seed=seed, rule_set=rng.choice(["mm8", "mm5"]))
    while GAME.open_phase(state) is not None:
        dumped = state.model_dump(mode="json")
        assert GAME.State.model_validate(json.loads(json.dumps(dumped))).model_dump(mode="json") == dumped
        phase = GAME.open_phase(state)
        subs = {}
        if "bid" in phase.accepts:
            subs = {p: {"bid": bid(card(rng.randrange(10), pack=rng.randrange(1, 11)))} for p in "ABC"}
        state = play(state, subs, seed=rng.randrange(1000))
    dumped = state.model_dump(mode="json")
    assert GAME.State.model_validate(dumped).model_dump(mode="json") == dumped


# -- a whole mm5 match, by hand --------------------------------------------------------------------

ITEMS = {
    1: ["Mirror", "Keep"],
    2: ["Duplicate", "Clone"],
    3: ["Insert", "Eraser"],
    4: ["Swap", "Shift"],
    5: ["Mirror", "Keep"],
}


def test_a_whole_mm5_match():
    # Every round: odd packs are 01234, even packs 56789.
    state = start(["A", "B"], rule_set="mm5", packs=dict.fromkeys(range(1, 6), EVEN_PACKS), items=ITEMS)

    # Round 1 bidding. Pack 1: A 9 > B 8 -> A (01234). Pack 2: B (56789).
    # Mirror: A 1 alone -> A. Keep: B 2 alone -> B.
    state = play(
        state,
        {
            "A": {"bid": bid(card(9, pack=1), card(1, item=1))},
            "B": {"bid": bid(card(9, pack=2), card(8, pack=1), card(2, item=2))},
        },
    )
    assert state.rounds[0].pack_winners[:2] == ["A", "B"]
    assert state.rounds[0].item_winners == ["A", "B"]

    # Round 2 bidding and round 1 construction.
    # A: 1 / 2 / 3, loses 0 and 4. B: 9 on string 1 and keeps 5678.
    # Bids: pack 3 A 9 / B 9 -> nobody; pack 4 B; Duplicate A 5 / B 5 -> nobody; Clone B (sum 0).
    state = play(
        state,
        {
            "A": {
                "construction": steps(append(1, "1"), append(2, "2"), append(3, "3")),
                "bid": bid(card(9, pack=3), card(5, item=1)),
            },
            "B": {
                "construction": steps(append(1, "9"), use("keep")),
                "bid": bid(card(9, pack=3), card(8, pack=4), card(5, item=1), card(0, item=2)),
            },
        },
    )
    assert state.seats["A"].strings == ["1", "2", "3"]
    assert state.seats["B"].strings == ["9", "", ""]
    assert state.seats["B"].digits == "5678" + "56789"
    assert state.rounds[1].pack_winners[2:4] == [None, "B"]
    assert state.rounds[1].item_winners == [None, "B"]

    # Round 3 bidding and round 2 construction. A has no digits and sends nothing.
    # B: 99 / 8778 / 5665 from 567856789. A wins pack 5 (01234) and the Insert.
    state = play(
        state,
        {
            "A": {"bid": bid(card(9, pack=5), card(3, item=1))},
            "B": {"construction": steps(append(1, "9"), append(2, "8778"), append(3, "5665"))},
        },
    )
    assert state.seats["B"].strings == ["99", "8778", "5665"]
    assert state.seats["A"].digits == "01234"

    # Round 4 bidding and round 3 construction.
    # A: 101 / 232 / 34 mirrored to 3443. Bids: pack 7 A; pack 8 B; Swap B (1); Shift A 7 / B 7.
    state = play(
        state,
        {
            "A": {
                "construction": steps(append(1, "01"), append(2, "32"), append(3, "4"), use("mirror", string=3)),
                "bid": bid(card(9, pack=7), card(7, item=2)),
            },
            "B": {"bid": bid(card(9, pack=8), card(7, item=2), card(1, item=1))},
        },
    )
    assert state.seats["A"].strings == ["101", "232", "3443"]
    assert state.rounds[3].item_winners == ["B", None]

    # Round 5 bidding and round 4 construction.
    # A: Insert on string 3, a 1 at position 3: 34143. B: 999.
    # Bids: pack 9 A; pack 10 B; Mirror A 4 / B 4 -> nobody; Keep B 3 > A 2 -> B.
    state = play(
        state,
        {
            "A": {
                "construction": steps(use("insert", string=3), append(3, "1", 3)),
                "bid": bid(card(9, pack=9), card(4, item=1), card(2, item=2)),
            },
            "B": {
                "construction": steps(append(1, "9")),
                "bid": bid(card(9, pack=10), card(4, item=1), card(3, item=2)),
            },
        },
    )
    assert state.seats["A"].strings == ["101", "232", "34143"]
    assert state.rounds[4].item_winners == [None, "B"]

    # Round 5 construction: A sends nothing; B adds a 9 and uses Keep in the last round (lost).
    public_before_end = json.dumps(GAME.view(state, None))
    assert "34143" not in public_before_end and "8778" not in public_before_end
    state = play(state, {"B": {"construction": steps(append(1, "9"), use("keep"))}})
    assert GAME.open_phase(state) is None

    final = GAME.view(state, None)["public"]["final"]
    assert final["A"]["strings"] == ["101", "232", "34143"]
    assert final["B"]["strings"] == ["9999", "8778", "5665"]
    # A: 101 -> 5, 232 -> 3, 34143 (the largest value) -> 9: 17.
    # B: Normality (4, 4, 4): 9999 -> 10, 8778 -> 7, 5665 -> 7: 24. (See test_a_whole_players_score.)
    assert [s["total"] for s in final["A"]["scores"]] == [5, 3, 9]
    assert [s["total"] for s in final["B"]["scores"]] == [10, 7, 7]
    assert (final["A"]["total"], final["B"]["total"]) == (17, 24)

    result = GAME.result(state).to_json()
    assert result["standings"] == [
        {"place": 1, "player": "B", "score": "24", "tied_with": []},
        {"place": 2, "player": "A", "score": "17", "tied_with": []},
    ]
    assert (result["tol"], result["ec"], result["undecided"]) == (["B"], ["A"], [])
    assert result["tol_awarded"] == {"B": 2}
    # A: 5 x 17 = 85 < 4 x 24 = 96, but 85 >= 3 x 24 = 72 -> 3
    assert result["garnets"] == {"A": 3, "B": 5}

    items_b = [(i["name"], i["round"], i["used_in_round"]) for i in GAME.view(state, "B")["private"]["items"]]
    assert items_b == [("Keep", 1, 1), ("Clone", 2, None), ("Swap", 4, None), ("Keep", 5, 5)]
    items_a = [(i["name"], i["round"], i["used_in_round"]) for i in GAME.view(state, "A")["private"]["items"]]
    assert items_a == [("Mirror", 1, 3), ("Insert", 3, 4)]
    last_b = GAME.view(state, "B")["private"]["constructions"][-1]
    assert (last_b["round"], last_b["digits"], last_b["kept"], last_b["discarded"]) == (
        5,
        "56789",
        "",
        "5678",
    )


def test_strings_stay_private_until_the_end():
    state = start(["A", "B"], rule_set="mm5", packs={1: EVEN_PACKS})
    state = play(state, {"A": {"bid": bid(card(9, pack=1))}})
    state = play(state, {"A": {"construction": steps(append(1, "3210"))}})
    assert "3210" not in json.dumps(GAME.view(state, None))
    assert "3210" not in json.dumps(GAME.view(state, "B"))
    assert GAME.view(state, "A")["private"]["strings"] == ["3210", "", ""]
    assert "final" not in GAME.view(state, None)["public"]
