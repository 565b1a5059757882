"""The `deal` rule set (the original): deals, the zero swap, the target, ties, refusals, views."""

from __future__ import annotations

import pytest
from abstrac_support import PLAYERS, mover, new, play, played_by_bots, refusals, roundtrip

from game_core.games.abstrac import GAME
from game_core.games.abstrac.cards import DECK
from game_core.games.abstrac.models import AbstracState as State

# The original's example hand for the player who takes the chunks marked "x", written in the
# text's suit form (A-D = R, Y, G, B): A1 A2 A3 A4 A6 B2 B3 B5 B6 C1 C2 C3 D2, base 17 on 13
# cards. The other 11 (5R 1Y 4Y 4G 5G 6G 1B 3B 4B 5B 6B) are: three 4s 2, three 5s 2, green 456
# 3, blue 3456 4 = base 11. Taken x3 o3 x3 o3 x3 o3 x3 o2 x1: the starter gets the x chunks.
EXAMPLE_LINE = "A1 A2 A3  A5 B1 B4  A4 A6 B2  C4 C5 C6  B3 B5 B6  D1 D3 D4  C1 C2 C3  D5 D6  D2".split()
EXAMPLE_TAKES = [3, 3, 3, 3, 3, 3, 3, 2, 1]
# Starter 17 x 11 = 187, the other 11 x 13 = 143.

# Taken 3 at a time, alternately: the starter gets 1R 2Y 3G 4B 5R 6Y 1G 2B 3R 4Y 5G 6B (every
# number twice, no colour with two consecutive numbers: base 0), the other 1Y 1B 2R 2G 3Y 3B 4R 4G
# 5Y 5B 6R 6G (the same: base 0). Both zero: both score 0.
ZERO_LINE = "1R 2Y 3G  1Y 1B 2R  4B 5R 6Y  2G 3Y 3B  1G 2B 3R  4R 4G 5Y  4Y 5G 6B  5B 6R 6G".split()
ZERO_TAKES = [3] * 8

# Taken 1 by the starter, 3 by the other, six times: the starter gets 1R 2Y 3G 4B 5R 6Y (base 0),
# the other the remaining 18: R 2346, Y 1345, G 12456, B 12356: every number three times (6 sets,
# 12) and red 234, yellow 345, green 456, blue 123 (12): base 24. Zero swap: the starter scores
# 24 x 6 = 144, the other 0.
OTHER_18 = "2R 3R 4R 6R 1Y 3Y 4Y 5Y 1G 2G 4G 5G 6G 1B 2B 3B 5B 6B".split()
SWAP_LINE = "1R 2R 3R 4R  2Y 6R 1Y 3Y  3G 4Y 5Y 1G  4B 2G 4G 5G  5R 6G 1B 2B  6Y 3B 5B 6B".split()
SWAP_TAKES = [1, 3] * 6


def deal_game(lines: list[list[str]], **settings) -> State:
    return new(rule_set="deal", deal_lines=lines, **settings)


def take_all(state: State, counts: list[int], elapsed: int = 0) -> State:
    for count in counts:
        state = play(state, "take", {"count": count}, elapsed=elapsed)
    return state


def test_a_deal_of_the_worked_example_scores_187_and_143():
    state = deal_game([EXAMPLE_LINE])
    phase = GAME.open_phase(state)
    assert (phase.name, phase.accepts, phase.actors) == ("Move", ("take",), ("A",))
    assert phase.closes_on_submit
    state = roundtrip(take_all(state, EXAMPLE_TAKES))
    public = GAME.view(state, None)["public"]
    [record] = public["deals"]
    assert record["players"]["A"]["base"] == 17
    assert record["players"]["A"]["card_count"] == 13
    assert record["players"]["A"]["score"] == 187
    assert record["players"]["B"]["base"] == 11
    assert record["players"]["B"]["score"] == 143
    assert [c["name"] for c in record["players"]["A"]["combinations"]] == [
        "Four-of-a-kind of 2",
        "Three-of-a-kind of 3",
        "Four-in-a-row of red",
        "Three-in-a-row of green",
    ]
    assert public["totals"] == {"A": 187, "B": 143}
    # below the target: the next deal starts, begun by the other player, with a shuffled line
    assert public["deal"] == 2
    assert mover(state) == "B"
    assert public["line_source"] == "shuffle"
    assert sorted(public["line"]) == sorted(DECK)
    empty = {"cards": [], "card_count": 0, "combinations": [], "points": 0}
    assert public["taken"] == {p: empty for p in PLAYERS}


def test_takes_come_from_the_top_of_the_line():
    state = deal_game([EXAMPLE_LINE])
    state = play(state, "take", {"count": 2})
    public = GAME.view(state, None)["public"]
    assert public["taken"]["A"]["cards"] == ["1R", "2R"]
    assert public["line"][:2] == ["3R", "5R"]
    assert len(public["line"]) == 22


# The text: "State how many cards you take; alternatively, state the last card among the ones you're
# going to take, or state all the cards you're going to take." The example line starts 1R 2R 3R 5R.
@pytest.mark.parametrize("payload", [{"count": 2}, {"last": "2R"}, {"cards": ["2R", "1R"]}])
def test_a_take_may_be_said_three_ways(payload):
    state = play(deal_game([EXAMPLE_LINE]), "take", payload)
    assert GAME.view(state, None)["public"]["taken"]["A"]["cards"] == ["1R", "2R"]


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ({"last": "5R"}, [("card_not_on_top", "5R is not among the top cards of the line (1R, 2R, 3R)")]),
        ({"cards": ["1R", "3R"]}, [("cards_not_on_top", "the top 2 cards are 1R, 2R, not 1R, 3R")]),
        ({"cards": []}, [("card_count", "a move takes 1, 2 or 3 cards, not 0")]),
        ({"cards": ["1R", "2R", "3R", "5R"]}, [("card_count", "a move takes 1, 2 or 3 cards, not 4")]),
    ],
)
def test_a_take_said_by_its_cards_must_name_the_top_of_the_line(payload, expected):
    assert refusals(deal_game([EXAMPLE_LINE]), "A", "take", payload) == expected


@pytest.mark.parametrize("payload", [{}, {"count": 1, "last": "1R"}, {"last": "7R"}])
def test_a_take_said_no_way_two_ways_or_with_no_such_card_is_malformed(payload):
    with pytest.raises(ValueError):
        GAME.submissions["take"].model_validate(payload)


def test_zero_swap_in_play():
    state = take_all(deal_game([SWAP_LINE]), SWAP_TAKES)
    [record] = GAME.view(state, None)["public"]["deals"]
    assert sorted(record["players"]["B"]["cards"]) == sorted(OTHER_18)
    assert (record["players"]["A"]["base"], record["players"]["B"]["base"]) == (0, 24)
    assert (record["players"]["A"]["card_count"], record["players"]["B"]["card_count"]) == (6, 18)
    assert (record["players"]["A"]["score"], record["players"]["B"]["score"]) == (144, 0)
    assert record["zero_swap"] is True


def test_both_zero_in_play():
    state = take_all(deal_game([ZERO_LINE]), ZERO_TAKES)
    [record] = GAME.view(state, None)["public"]["deals"]
    assert (record["players"]["A"]["base"], record["players"]["B"]["base"]) == (0, 0)
    assert (record["players"]["A"]["score"], record["players"]["B"]["score"]) == (0, 0)
    assert GAME.view(state, None)["public"]["totals"] == {"A": 0, "B": 0}


def test_the_target_reached_by_both_in_one_deal_higher_total_wins():
    state = deal_game([EXAMPLE_LINE])
    state.deal.totals = {"A": 250, "B": 300}
    state = take_all(state, EXAMPLE_TAKES)
    # A 250 + 187 = 437, B 300 + 143 = 443: both past 400, B is higher.
    assert GAME.open_phase(state) is None
    outcome = GAME.result(state).to_json()
    assert outcome["standings"] == [
        {"place": 1, "player": "B", "score": "443", "tied_with": []},
        {"place": 2, "player": "A", "score": "437", "tied_with": []},
    ]
    assert outcome["ec"] == ["A"]
    assert outcome["tol"] == []
    assert outcome["garnets"] == {"A": 0, "B": 0}
    assert outcome["details"]["ended_by"] == "score"
    assert outcome["details"]["totals"] == {"A": 437, "B": 443}


def test_a_tie_at_the_target_plays_more_deals_until_the_totals_differ():
    state = deal_game([EXAMPLE_LINE, ZERO_LINE, EXAMPLE_LINE])
    state.deal.totals = {"A": 256, "B": 300}
    state = take_all(state, EXAMPLE_TAKES)
    # A 256 + 187 = 443, B 300 + 143 = 443: tied past the target, so deal 2 (B starts).
    assert GAME.view(state, None)["public"]["totals"] == {"A": 443, "B": 443}
    assert mover(state) == "B"
    state = take_all(state, ZERO_TAKES)
    # Both bases 0: still 443 each, so deal 3 (A starts again).
    assert GAME.view(state, None)["public"]["totals"] == {"A": 443, "B": 443}
    assert GAME.view(state, None)["public"]["deal"] == 3
    assert mover(state) == "A"
    state = take_all(state, EXAMPLE_TAKES)
    # A 443 + 187 = 630, B 443 + 143 = 586.
    assert GAME.open_phase(state) is None
    outcome = GAME.result(state)
    assert [(s.player, s.place, s.score) for s in outcome.standings] == [("A", 1, "630"), ("B", 2, "586")]
    assert outcome.ec == ("B",)
    assert [d["number"] for d in outcome.details["deals"]] == [1, 2, 3]


@pytest.mark.parametrize(("target", "over"), [(400, True), (500, True), (600, False)])
def test_other_targets(target, over):
    # Totals before the deal: A 400, B 0; after it A 587, B 143.
    state = deal_game([EXAMPLE_LINE], target=target)
    state.deal.totals = {"A": 400, "B": 0}
    state = take_all(state, EXAMPLE_TAKES)
    assert GAME.view(state, None)["public"]["totals"] == {"A": 587, "B": 143}
    assert (GAME.open_phase(state) is None) is over


def test_first_starter_setting_and_alternation():
    state = deal_game([EXAMPLE_LINE, EXAMPLE_LINE], first_starter="B")
    assert mover(state) == "B"
    state = take_all(state, EXAMPLE_TAKES)
    # B started and got the example hand: B 187, A 143.
    assert GAME.view(state, None)["public"]["totals"] == {"A": 143, "B": 187}
    assert mover(state) == "A"


@pytest.mark.parametrize(
    ("setup_takes", "player", "kind", "payload", "expected"),
    [
        ([], "A", "take", {"count": 0}, [("card_count", "a move takes 1, 2 or 3 cards, not 0")]),
        ([], "A", "take", {"count": 4}, [("card_count", "a move takes 1, 2 or 3 cards, not 4")]),
        (
            [],
            "A",
            "take",
            {"count": -1},
            [("card_count", "a move takes 1, 2 or 3 cards, not -1")],
        ),
        # 22 taken (A3 B3 A3 B3 A3 B3 A3 B1), A to move with 2 left
        (
            [3, 3, 3, 3, 3, 3, 3, 1],
            "A",
            "take",
            {"count": 3},
            [("cards_short", "only 2 cards remain in the line, and the move takes 3")],
        ),
        (
            [3, 3, 3, 3, 3, 3, 3, 2],
            "A",
            "take",
            {"count": 2},
            [("cards_short", "only 1 card remains in the line, and the move takes 2")],
        ),
    ],
)
def test_refusals(setup_takes, player, kind, payload, expected):
    state = take_all(deal_game([EXAMPLE_LINE]), setup_takes)
    assert refusals(state, player, kind, payload) == expected


def test_views_show_everything_and_the_private_part_is_empty():
    state = take_all(deal_game([EXAMPLE_LINE]), [3, 3])
    public = GAME.view(state, None)
    assert set(public) == {"public"}
    for player in PLAYERS:
        assert GAME.view(state, player) == {"public": public["public"], "private": {}}
    shown = public["public"]
    assert shown["taken"]["A"]["combinations"] == [
        {"kind": "run", "name": "Three-in-a-row of red", "cards": ["1R", "2R", "3R"], "points": 3}
    ]
    assert shown["taken"]["B"]["cards"] == ["5R", "1Y", "4Y"]
    assert shown["suits"] == {"A": "R", "B": "Y", "C": "G", "D": "B"}
    assert shown["clocks"]["A"] == {"period_seconds": 86400, "periods_left": 5, "used_on_current_move": 0}
    assert shown["target"] == 400


def test_the_same_seed_shuffles_the_same_lines():
    one, two, three = new(seed=5, rule_set="deal"), new(seed=5, rule_set="deal"), new(seed=6, rule_set="deal")
    assert one.deal.line == two.deal.line
    assert one.deal.line != three.deal.line
    assert one.deal.line_source == "shuffle"


def test_bot_plays_a_whole_deal_match_legally():
    state = played_by_bots(new(seed=4, rule_set="deal"), max_moves=2000)
    outcome = GAME.result(state)
    totals = state.deal.totals
    assert max(totals.values()) >= 400
    assert totals["A"] != totals["B"]
    winner = max(totals, key=totals.get)
    assert outcome.standings[0].player == winner
    for record in state.deal.finished:
        assert sorted(record.taken["A"] + record.taken["B"]) == sorted(DECK)
