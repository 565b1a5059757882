"""Puzzler's Clubs played to the end by bots on the real ASL executed by moto, with garnets to
move: the bots think on the match clock before answering their puzzles, players give garnets to
their guests, guests peek and give the rest back.

Then the exported record, immediate actions included, replays to the live state byte for byte;
the guests' garnets are back with their players; and no message to a participant holds another's
tokens, drafted cards, won cards, hand, guesses or guessing total (rulings `clubs`: tokens are
private, a peek's answer goes to its buyer, the draft's reveal is per card, hands are ranked
without being shown, and each guessing total is told to its guesser alone).
"""

from __future__ import annotations

import json
from typing import Any

import played_matches
import pytest
from conftest import walk
from played_matches import CLUBS, CLUBS_GARNETS

from game_core.games import registry
from game_core.games.clubs.models import TOKEN, ClubsState
from game_core.match.engine import setup_rng
from game_core.match.model import MatchRecord
from game_core.match.replay import replay, replay_phase
from local_stack.bots.runner import MatchRun

pytestmark = pytest.mark.statemachine

PRIVATE_KEYS = {
    "private",
    "tokens",
    "used_tokens",
    "peeks",
    "puzzles",
    "puzzles_sent_ms",
    "usable",
    "won",
    "hand",
    "guessing_total",
}
"""What only a participant's own view holds (under view.private); their drafts, named "draft" as the
public per-card reveal is, are checked by value."""


@pytest.fixture(scope="module")
def played() -> tuple[MatchRun, MatchRecord, dict[str, Any], dict[str, int]]:
    """One bot match (played_matches.CLUBS, played once for this module and test_full_matches.py):
    its run, its exported record, the live final state and the final balances."""
    match = played_matches.played(CLUBS)
    assert match.run.status == "SUCCEEDED"
    return match.run, MatchRecord.model_validate(match.exported), match.live_state, match.balances


def final_state(record: MatchRecord) -> ClubsState:
    game = registry.load("clubs")
    state = game.setup(game.Settings.model_validate(record.settings), tuple(record.players), setup_rng(record.seed))
    for phase in record.phases:
        state = replay_phase(game, state, record.seed, phase)
    assert isinstance(state, ClubsState)
    return state


def test_the_record_with_its_puzzles_transfers_and_peeks_replays_to_the_live_state(played) -> None:
    run, record, live_state, _balances = played
    kinds = {action.kind for phase in record.phases for action in phase.actions}
    assert kinds == {"puzzle", "answer", "transfer", "peek"}

    assert final_state(record).model_dump(mode="json") == live_state
    assert replay(record)["result"] == record.result == run.result


def test_the_bots_think_on_the_match_clock_so_their_tokens_are_whole_seconds_of_thought(played) -> None:
    _run, record, _live_state, _balances = played
    # Each bot thinks 5-60 s before an answer (5-30 s more after a wrong one), within its phase's
    # hour: every token is at least 5 and below 1800; none is the 1 of an answer sent at once.
    tokens = [
        value for round_state in final_state(record).rounds for three in round_state.tokens.values() for value in three
    ]
    assert len(tokens) == 7 * 6 * 3
    assert all(5 <= value < 1800 for value in tokens), sorted(set(tokens))


def test_the_guests_garnets_are_back_with_their_players(played) -> None:
    _run, record, _live_state, balances = played
    # Nothing is left in a purse; a player holds their start, less the peeks their team bought
    # (1 garnet each; the bots lower no priority), plus floor(team score / 15).
    assert {guest: balances[guest] for guest in ("p01g1", "p02g1", "p03g1")} == dict.fromkeys(
        ("p01g1", "p02g1", "p03g1"), 0
    )
    peeks = final_state(record).peeks
    assert record.result is not None
    expected = {
        player: start - len(peeks[player]) - len(peeks[f"{player}g1"]) + record.result["garnets"][player]
        for player, start in CLUBS_GARNETS.items()
    }
    assert {player: balances[player] for player in CLUBS_GARNETS} == expected


def secrets_of(state: ClubsState, record: MatchRecord, participant: str) -> list[Any]:
    """Everything of a participant's that the rules never show anyone else: each round's drafted
    picks, cards won (when any), hand and guesses (as JSON values)."""
    secrets: list[Any] = []
    for round_state in state.rounds:
        if participant in round_state.drafts:
            secrets.append(round_state.drafts[participant].model_dump(mode="json")["picks"])
        if round_state.won.get(participant):
            secrets.append(round_state.won[participant])
        secrets.append(round_state.hands[participant])
    for phase in record.phases:
        sent = phase.submissions.get(participant, {})
        if "guess" in sent:
            secrets += [guess["cards"] for guess in sent["guess"]["guesses"]]
    return secrets


def test_no_message_holds_another_participants_tokens_cards_hand_or_guesses(played) -> None:
    run, record, _live_state, _balances = played
    state = final_state(record)
    secrets = {p: secrets_of(state, record, p) for p in record.players}

    for participant, notices in [(None, run.announcements), *run.private.items()]:
        own = [] if participant is None else secrets[participant]
        others = [secret for p, kept in secrets.items() if p != participant for secret in kept if secret not in own]
        assert notices
        for notice in notices:
            for path, value in walk(notice):
                assert value not in others, (participant, path, value)
                private_key = bool(path) and path[-1] in PRIVATE_KEYS
                if participant is None:
                    assert not private_key, (path, value)  # the public sees no seat's secrets
                elif private_key:
                    assert path[:2] == ("view", "private"), (participant, path)  # only their own seat
                if isinstance(value, dict) and value and all(TOKEN.match(key) for key in value):
                    # a token table is the recipient's own, and never public
                    assert path == ("view", "private", "tokens"), (participant, path)
        # a peek's answer is in the buyer's notices only: the tokens they bought
        peeked = [record_ for notice in notices for record_ in notice["view"].get("private", {}).get("peeks", [])]
        bought = [] if participant is None else [p.model_dump(mode="json") for p in state.peeks[participant]]
        assert all(peek in bought for peek in peeked)
    assert json.dumps(run.announcements).count('"private"') == 0
