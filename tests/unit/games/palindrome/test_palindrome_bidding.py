"""Bids: every refusal reason, pack and item resolution with ties and blocked highest cards, and
what the end of bidding reveals."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from palindrome_support import EVEN_PACKS_MM8, GAME, bid, card, parse, play, start
from pydantic import ValidationError

from game_core.games.palindrome.bidding import check_bid, resolve_items, resolve_packs
from game_core.games.palindrome.models import Bid
from game_core.games.palindrome.rule_sets import RULE_SETS
from game_core.match import engine

MM8, MM5 = RULE_SETS["mm8"], RULE_SETS["mm5"]


def bids(**by_player: dict) -> dict[str, Bid]:
    return {player: Bid.model_validate(payload) for player, payload in by_player.items()}


# -- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "payload", "balance", "expected"),
    [
        (MM8, bid(), 0, []),
        (
            MM8,
            bid(card(9, pack=1), card(8, pack=2), card(0, item=1), card(1, item=1), card(2, item=1)),
            0,
            [],
        ),
        (MM8, bid(*(card(c, pack=c + 1) for c in range(10))), 0, []),
        (MM8, bid(card(3, item=1), garnets=2), 2, []),
        (MM5, bid(card(9, pack=10), card(1, item=2), card(2, item=1)), 0, []),
        (
            MM8,
            bid(card(9, pack=1), card(9, pack=2)),
            0,
            [("card_repeated", "card 9 is used 2 times; each card is used at most once")],
        ),
        (
            MM8,
            bid(card(4, pack=1), card(4, item=1)),
            0,
            [("card_repeated", "card 4 is used 2 times; each card is used at most once")],
        ),
        (
            MM8,
            bid(card(9, pack=1), card(8, pack=1)),
            0,
            [("pack_repeated", "pack 1 has 2 of your cards (9, 8); at most one")],
        ),
        (MM8, bid(card(10, pack=1)), 0, [("card_unknown", "there is no card 10 (cards are 0 to 9)")]),
        (MM8, bid(card(-1, pack=1)), 0, [("card_unknown", "there is no card -1 (cards are 0 to 9)")]),
        (MM8, bid(card(5, pack=11)), 0, [("pack_unknown", "there is no pack 11 (packs are 1 to 10)")]),
        (MM8, bid(card(5, pack=0)), 0, [("pack_unknown", "there is no pack 0 (packs are 1 to 10)")]),
        (MM8, bid(card(5, item=2)), 0, [("item_unknown", "there is no item 2 this round (items are 1 to 1)")]),
        (MM5, bid(card(5, item=3)), 0, [("item_unknown", "there is no item 3 this round (items are 1 to 2)")]),
        (
            MM5,
            bid(card(5, item=1), garnets=1),
            5,
            [("garnets_not_bid", "garnets cannot be bid on items in Main Match 5")],
        ),
        (MM8, bid(card(5, item=1), garnets=3), 2, [("garnets_short", "you bid 3 garnets, but your balance is 2")]),
        (MM8, bid(garnets=1), 0, [("garnets_short", "you bid 1 garnets, but your balance is 0")]),
        (
            MM8,
            {"cards": [], "garnets": 1, "garnet_item": 2},
            1,
            [("garnet_item_unknown", "the garnets go on item 2, which does not exist this round (items are 1 to 1)")],
        ),
        # every reason at once
        (
            MM8,
            bid(
                card(9, pack=1),
                card(9, pack=2),
                card(8, pack=2),
                card(7, pack=12),
                card(6, item=4),
                garnets=5,
            ),
            1,
            [
                ("card_repeated", "card 9 is used 2 times; each card is used at most once"),
                ("pack_repeated", "pack 2 has 2 of your cards (9, 8); at most one"),
                ("pack_unknown", "there is no pack 12 (packs are 1 to 10)"),
                ("item_unknown", "there is no item 4 this round (items are 1 to 1)"),
                ("garnets_short", "you bid 5 garnets, but your balance is 1"),
            ],
        ),
    ],
)
def test_check_bid(rules, payload, balance, expected):
    # The game's reasons (`check_bid`), then the match layer's when the balance is short.
    state = start(["A", "B"], rule_set=rules.key)
    refused = engine.refusals(GAME, state, "A", "bid", parse("bid", payload), balance)
    assert [(reason.code, reason.text) for reason in refused] == expected
    assert check_bid(rules, Bid.model_validate(payload)) == [r for r in refused if r.code != "garnets_short"]


@pytest.mark.parametrize(
    "payload",
    [
        {"cards": [{"card": 1}]},
        {"cards": [{"card": 1, "pack": 1, "item": 1}]},
        {"cards": [{"card": "nine", "pack": 1}]},
        {"cards": [], "garnets": -1},
        {"cards": [], "colour": "red"},
        {"cards": [{"card": 1, "pack": 1, "extra": 0}]},
    ],
)
def test_malformed_bids_are_refused_by_the_model(payload):
    with pytest.raises(ValidationError):
        parse("bid", payload)


def test_check_through_the_game_uses_the_rule_set_and_never_the_balance():
    mm8 = play(start(["A", "B"]), {})  # past the pregame
    assert GAME.check(mm8, "A", "bid", parse("bid", bid(card(1, item=1), garnets=2))) == []
    assert GAME.check(mm8, "A", "bid", parse("bid", bid(garnets=3))) == []  # the match layer checks the balance
    assert GAME.cost_text("bid", parse("bid", bid(garnets=3))) == "you bid 3 garnets"
    mm5 = start(["A", "B"], rule_set="mm5")
    assert [r.text for r in GAME.check(mm5, "A", "bid", parse("bid", bid(garnets=1)))] == [
        "garnets cannot be bid on items in Main Match 5"
    ]


def test_the_garnet_cost_of_a_bid_is_its_garnets():
    assert GAME.garnet_cost("bid", parse("bid", bid(card(1, item=1), garnets=3))) == 3
    assert GAME.garnet_cost("bid", parse("bid", bid(card(1, item=1)))) == 0
    assert GAME.garnet_cost("construction", parse("construction", {"steps": []})) == 0


# -- pack resolution -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards_on_pack_1", "winner"),
    [
        ({}, None),
        ({"A": 0}, "A"),  # a lone 0 wins
        ({"A": 3, "B": 7}, "B"),
        ({"A": 9, "B": 9}, None),  # the only cards are tied
        ({"A": 9, "B": 9, "C": 8}, "C"),  # the highest card is blocked; the next unique one wins
        ({"A": 9, "B": 9, "C": 8, "D": 8}, None),
        ({"A": 9, "B": 9, "C": 8, "D": 8, "E": 3}, "E"),
        ({"A": 9, "B": 9, "C": 9, "D": 1}, "D"),
        ({"A": 5, "B": 5, "C": 6}, "C"),  # a higher unique card beats a lower tie
    ],
)
def test_a_pack_goes_to_the_highest_unique_card(cards_on_pack_1, winner):
    table = bids(**{p: bid(card(c, pack=1)) for p, c in cards_on_pack_1.items()})
    assert resolve_packs(MM8, table)[0] == winner


def test_each_pack_is_resolved_on_its_own_cards():
    table = bids(
        A=bid(card(9, pack=1), card(8, pack=2), card(1, pack=3)),
        B=bid(card(9, pack=1), card(7, pack=2), card(2, pack=4)),
        C=bid(card(0, pack=10)),
    )
    # pack 1: 9/9 tied -> nobody; pack 2: A 8 > B 7; pack 3: A; pack 4: B; pack 10: C
    assert resolve_packs(MM8, table) == [None, "A", "A", "B", None, None, None, None, None, "C"]


def test_non_bidders_and_missing_players_take_no_pack():
    assert resolve_packs(MM8, {}) == [None] * 10
    assert resolve_packs(MM8, bids(A=bid(card(5, item=1)))) == [None] * 10


# -- item resolution -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "table", "expected"),
    [
        # sums: A 9 + 8 = 17, B 9 + 7 + 1 = 17 (tied), C 5 -> C
        (
            MM8,
            {
                "A": bid(card(9, item=1), card(8, item=1)),
                "B": bid(card(9, item=1), card(7, item=1), card(1, item=1)),
                "C": bid(card(5, item=1)),
            },
            ["C"],
        ),
        # a lone card 0 is a bid with sum 0 and wins
        (MM8, {"A": bid(card(0, item=1)), "B": bid(card(9, pack=1))}, ["A"]),
        # nobody put anything on the item: no bidder, no winner (B's pack cards do not count)
        (MM8, {"A": bid(), "B": bid(card(9, pack=1))}, [None]),
        # a player with nothing on the item is not a bidder (A's sum 0 is unique, B is no 0)
        (MM8, {"A": bid(card(0, item=1)), "B": bid()}, ["A"]),
        # garnets: A 9, B 2 garnets = 10 -> B
        (MM8, {"A": bid(card(9, item=1)), "B": bid(garnets=2)}, ["B"]),
        # A 1 garnet = 5 ties B's card 5 -> nobody
        (MM8, {"A": bid(garnets=1), "B": bid(card(5, item=1))}, [None]),
        # A 1 garnet + card 2 = 7; B 3 + 4 = 7; C 1 + 2 + 3 = 6 -> C (the top sum is blocked)
        (
            MM8,
            {
                "A": bid(card(2, item=1), garnets=1),
                "B": bid(card(3, item=1), card(4, item=1)),
                "C": bid(card(1, item=1), card(2, item=1), card(3, item=1)),
            },
            ["C"],
        ),
        # all ten cards: 45
        (MM8, {"A": bid(*(card(c, item=1) for c in range(10))), "B": bid(card(9, item=1))}, ["A"]),
        # mm5: two items, each on its own sums
        (
            MM5,
            {
                "A": bid(card(9, item=1), card(1, item=2)),
                "B": bid(card(9, item=1), card(2, item=2)),
                "C": bid(card(4, item=1)),
            },
            ["C", "B"],
        ),
        (MM5, {"A": bid(card(5, item=2)), "B": bid(card(5, item=2))}, [None, None]),
    ],
)
def test_an_item_goes_to_the_highest_unique_sum(rules, table, expected):
    assert resolve_items(rules, bids(**table)) == expected


# -- in play: what the end of bidding reveals -------------------------------------------------------


def test_bidding_in_play_awards_digits_and_items_and_reveals_only_who_received_them():
    state = start(["A", "B", "C"], packs={1: EVEN_PACKS_MM8}, items={1: ["Clone"]})
    state = play(state, {})  # the pregame
    before = GAME.view(state, None)["public"]["round_log"]
    assert before == [
        {
            "round": 1,
            "resolved": False,
            "packs": [{"pack": i + 1, "digits": d} for i, d in enumerate(EVEN_PACKS_MM8)],
            "items": [{"item": 1, "name": "Clone"}],
        }
    ]
    state = play(
        state,
        {
            "A": {"bid": bid(card(9, pack=1), card(8, pack=2), card(7, item=1), garnets=1)},
            "B": {"bid": bid(card(9, pack=1), card(3, pack=2), card(5, pack=3), card(8, item=1), card(4, item=1))},
            "C": {"bid": bid(card(9, pack=1), card(2, pack=3))},
        },
    )
    # pack 1: three 9s -> nobody; pack 2: A 8 > B 3; pack 3: B 5 > C 2.
    # item: A 7 + 5 = 12, B 8 + 4 = 12 -> tied, nobody.
    log = GAME.view(state, None)["public"]["round_log"][0]
    assert [p.get("received_by") for p in log["packs"]] == [None, "A", "B"] + [None] * 7
    assert log["items"] == [{"item": 1, "name": "Clone", "received_by": None}]
    assert log["resolved"] is True
    assert state.seats["A"].digits == "345" and state.seats["B"].digits == "678" and state.seats["C"].digits == ""
    assert state.seats["A"].garnets_spent == 1  # spent though the item was not won
    # the public view names no card; a player's view shows their own bid only
    public = json.dumps(GAME.view(state, None))
    assert '"card"' not in public and "garnets_spent" not in public
    mine = GAME.view(state, "A")["private"]
    assert mine["bids"] == [
        {
            "round": 1,
            "bid": {
                "cards": [
                    {"card": 9, "pack": 1, "item": None},
                    {"card": 8, "pack": 2, "item": None},
                    {"card": 7, "pack": None, "item": 1},
                ],
                "garnets": 1,
                "garnet_item": 1,
            },
        }
    ]
    assert mine["digits"] == "345" and mine["garnets_spent"] == 1
    assert "B" not in json.dumps(GAME.view(state, "A")["private"])
    assert GAME.view(state, "C")["private"]["bids"] == [
        {
            "round": 1,
            "bid": {
                "cards": [{"card": 9, "pack": 1, "item": None}, {"card": 2, "pack": 3, "item": None}],
                "garnets": 0,
                "garnet_item": 1,
            },
        }
    ]


def test_no_bid_means_no_packs_and_is_recorded_as_none():
    state = play(start(["A", "B"]), {})
    state = play(state, {"A": {"bid": bid(card(0, pack=4))}})
    assert state.seats["B"].bids[0].bid is None
    assert [r.pack_winners for r in state.rounds][0][3] == "A"
    assert state.seats["B"].digits == ""


# -- properties ------------------------------------------------------------------------------------


@st.composite
def legal_bids(draw, packs: int = 10, items: int = 1):
    players = draw(st.integers(min_value=2, max_value=12))
    table = {}
    for n in range(players):
        cards = draw(st.permutations(range(10)))
        used = draw(st.integers(min_value=0, max_value=10))
        targets = draw(st.permutations(range(1, packs + 1)))
        entries = []
        for i, c in enumerate(cards[:used]):
            if i < packs and draw(st.booleans()):
                entries.append(card(c, pack=targets[i]))
            else:
                entries.append(card(c, item=draw(st.integers(min_value=1, max_value=items))))
        table[f"p{n}"] = Bid.model_validate(bid(*entries))
    return table


@given(legal_bids())
def test_resolution_never_gives_a_pack_to_two_players(table):
    for p in table.values():
        assert check_bid(MM8, p) == []
    winners = resolve_packs(MM8, table)
    for pack, winner in enumerate(winners, start=1):
        on_pack = {p: cb.card for p, b in table.items() for cb in b.cards if cb.pack == pack}
        values = list(on_pack.values())
        unique = [v for v in values if values.count(v) == 1]
        if winner is None:
            assert unique == []
        else:
            # the winner's card is on the pack, nobody else played it, and no unique card is higher
            assert values.count(on_pack[winner]) == 1
            assert on_pack[winner] == max(unique)
            assert [p for p, c in on_pack.items() if c == on_pack[winner]] == [winner]


@given(legal_bids(items=2))
def test_resolution_never_gives_an_item_to_two_players(table):
    for item, winner in enumerate(resolve_items(MM5, table), start=1):
        sums = {
            p: sum(cb.card for cb in b.cards if cb.item == item)
            for p, b in table.items()
            if any(cb.item == item for cb in b.cards)
        }
        if winner is not None:
            assert list(sums.values()).count(sums[winner]) == 1
            assert sums[winner] == max(s for s in sums.values() if list(sums.values()).count(s) == 1)
        else:
            assert all(list(sums.values()).count(s) > 1 for s in sums.values())
