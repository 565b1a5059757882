"""Puzzler's Clubs drawn on the player's page (issue 30, item 1): the community and hole cards as
cards, the round's puzzles and their clocks, the viewer's draft by priority, the draft's reveal,
tokens, teams and each round's hands, from the viewer's own view alone.

The match (worked by hand from the rules): ada (with her guest gus), bo (with hal), cy (with ivy).
Every round's deal is the host's: community KH; hole cards ada 2H, gus 3D, bo 4S, hal 5H, cy 6D,
ivy 7S. In Phase 1A ada asks for puzzle 1 at 1 s on the match clock and solves it at 41 s (token
1.1: 40 seconds), and asks for puzzle 2 at 3,723 s (01:02:03 UTC) without solving it.
Her draft: AS 1, KS 2, QS 3, JS 4, TS 5, 9C 6 with token 1.1; bo's: AS 1, 2D 2, 3H 3, 4H 4, 5D 5,
6H 6. AS is priority 1 for both: discarded. Everything else was drafted once: given. ada
receives KS QS JS TS 9C, and her token 1.1 is used; her unsolved 1.2 and 1.3 are worth 1800.
In Phase 2A+1B ada builds KS QS JS TS 9C, a king-high straight; nobody else sends a hand, so the
service builds each the best it can: bo (KH 4S 2D 3H 4H 5D 6H) the six-high straight 2D 3H 4H 5D
6H; the others hold only KH and their hole card: ivy K-7, cy K-6, hal K-5, gus K-3 (a missing
card loses to any card, so two cards beat one). Ranking: ada, bo, ivy, cy, hal, gus; ada scores
15 for first place and 1 for her club: 16 points; she guessed nobody: +0.
"""

from __future__ import annotations

import copy
import random
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from game_core.games.capabilities import Board, DrawsBoard
from game_core.games.clubs import GAME
from game_core.games.clubs.models import DraftSubmission, PuzzleAnswer, PuzzleRequest
from game_core.games.clubs.views import change_private_seat
from game_core.games.protocol import Resolution
from local_stack.bots.clubs import solve

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bot_matches import play_through  # noqa: E402

PARTICIPANTS = ("ada", "gus", "bo", "hal", "cy", "ivy")
NAMES = {"ada": "Ada", "gus": "Gus", "bo": "Bo", "hal": "Hal", "cy": "Cy", "ivy": "Ivy"}
HOLES = dict(zip(PARTICIPANTS, ["2H", "3D", "4S", "5H", "6D", "7S"], strict=True))
DEAL = {"community": "KH", "holes": HOLES}
SUIT_COLOURS = {"\u2663": "#1e6b2e", "\u2660": "#1a1a1a", "\u2665": "#b3261e", "\u2666": "#0b4f8a"}
"""Clubs green, spades black, hearts red, diamonds blue (four colours: a club never reads as a spade)."""


def _draft(*picks: str) -> DraftSubmission:
    """Picks in priority order; "9C@1.1" drafts the club with token 1.1."""
    chosen = [
        {"card": pick.partition("@")[0], "priority": n, "token": pick.partition("@")[2] or None}
        for n, pick in enumerate(picks, start=1)
    ]
    return DraftSubmission.model_validate({"picks": chosen})


@pytest.fixture(scope="module")
def states():
    """The positions: in Phase 1A after ada's puzzles, then 2A+1B, then 3A+2B."""
    state = GAME.setup(GAME.Settings(deals=[DEAL] * 7), PARTICIPANTS, random.Random(0))
    state = GAME.act(state, "ada", "puzzle", PuzzleRequest(puzzle=1), 1_000).state
    answer = solve(GAME.act(state, "ada", "puzzle", PuzzleRequest(puzzle=1), 1_000).answer)
    state = GAME.act(state, "ada", "answer", PuzzleAnswer(puzzle=1, answer=answer), 41_000).state
    phase_a = GAME.act(state, "ada", "puzzle", PuzzleRequest(puzzle=2), 3_723_000).state
    drafts = {
        "ada": {"draft": _draft("AS", "KS", "QS", "JS", "TS", "9C@1.1")},
        "bo": {"draft": _draft("AS", "2D", "3H", "4H", "5D", "6H")},
    }
    building = GAME.resolve(phase_a, Resolution(drafts, random.Random(0)))
    build = GAME.submissions["build"].model_validate({"cards": ["KS", "QS", "JS", "TS", "9C"]})
    ranked = GAME.resolve(building, Resolution({"ada": {"build": build}}, random.Random(0)))
    return {"1A": phase_a, "2A+1B": building, "3A+2B": ranked}


def _draw(state, who: str = "ada") -> Board:
    text = GAME.text
    assert isinstance(text, DrawsBoard)
    board = text.draw_board(GAME.view(state, who), NAMES, who)
    assert board is not None
    return board


def _local(element: ET.Element) -> str:
    return element.tag.rpartition("}")[2]


def _marked(board: Board, key: str) -> ET.Element:
    [element] = [e for e in ET.fromstring(board.svg).iter() if e.get("data-mark") == key]
    return element


def _cards(element: ET.Element) -> list[str]:
    """Each card drawn in the element, as its code: a rounded box whose texts are rank and suit,
    read back with the suit's colour checked."""
    found = []
    for group in element.iter():
        texts = [child for child in group if _local(child) == "text"]
        if not any(_local(child) == "rect" for child in group) or len(texts) < 2:
            continue
        shown, symbol = texts[0].text or "", texts[1].text or ""
        if symbol not in SUIT_COLOURS:
            continue
        assert texts[0].get("fill") == texts[1].get("fill") == SUIT_COLOURS[symbol]
        suit = "CSHD"["\u2663\u2660\u2665\u2666".index(symbol)]
        found.append(("T" if shown == "10" else shown) + suit)
    return found


def _texts(element: ET.Element) -> list[str]:
    return [e.text or "" for e in element.iter() if _local(e) == "text"]


def _labels(element: ET.Element) -> list[str]:
    """The words under each card (13 units below a 48-unit card)."""
    return [e.text or "" for e in element.iter() if _local(e) == "text" and e.get("y") == "61"]


@pytest.mark.parametrize("position", ["1A", "2A+1B", "3A+2B"])
def test_the_drawing_is_one_svg_image_with_a_title(states, position):
    root = ET.fromstring(_draw(states[position]).svg)
    assert _local(root) == "svg" and root.get("role") == "img" and root.get("viewBox")
    assert _local(root[0]) == "title" and root[0].text == f"Puzzler's Clubs: phase {position}"
    assert not [e for e in root.iter() if _local(e) in ("script", "style") or e.get("style")]


def test_the_community_and_every_hole_card_are_drawn_as_cards_by_team(states):
    deal = _marked(_draw(states["1A"], "cy"), "deal-1")
    # The community card first, then each team's player and guest: ada 2H, gus 3D; bo 4S, hal 5H; cy 6D, ivy 7S.
    assert _cards(deal) == ["KH", "2H", "3D", "4S", "5H", "6D", "7S"]
    assert [t for t in _texts(deal) if t.startswith("Team")] == ["Team 1", "Team 2", "Team 3"]
    alt = _draw(states["1A"], "cy").alt
    assert "the community card is the king of hearts" in alt
    assert "team 1, Ada (2 of hearts) with Gus (3 of diamonds)" in alt


def test_the_round_s_puzzles_and_their_clocks(states):
    puzzles = _marked(_draw(states["1A"]), "puzzles-1")
    written = " ".join(_texts(puzzles))  # a line too long for a phone goes on in the next one
    assert written.endswith(
        "Puzzle 1: solved: token 1.1 is 40 s Puzzle 2: sent 01:02:03 UTC, clock running"
        " Puzzle 3: not asked yet: its clock starts when you ask"
    )
    assert "puzzle 1, not asked yet" in _draw(states["1A"], "bo").alt


def test_ada_s_draft_by_priority_the_reveal_her_cards_and_tokens(states):
    board = _draw(states["2A+1B"])
    draft = _marked(board, "draft-1")
    assert _cards(draft) == ["AS", "KS", "QS", "JS", "TS", "9C"]
    assert _labels(draft) == ["1", "2", "3", "4", "5", "6 1.1"]
    build = _cards(_marked(board, "build-1"))
    assert build[:2] == ["KH", "2H"] and sorted(build[2:]) == sorted(["KS", "QS", "JS", "TS", "9C"])
    reveal = _marked(board, "reveal-1")
    assert sorted(_cards(reveal)) == sorted(["AS", "KS", "QS", "JS", "TS", "9C", "2D", "3H", "4H", "5D", "6H"])
    assert _labels(reveal).count("\u00d72 out") == 1 and _labels(reveal).count("\u00d71") == 10
    assert sum(1 for e in reveal.iter() if _local(e) == "line") == 1  # AS alone is crossed out
    assert _texts(_marked(board, "tokens"))[-3:] == ["1.1: 40 s used", "1.2: 1800 s", "1.3: 1800 s"]
    assert "ace of spades drafted 2, discarded" in board.alt
    assert "9 of clubs priority 6, token 1.1" in board.alt


def test_a_finished_round_shows_the_ranking_and_ada_s_own_hand(states):
    board = _draw(states["3A+2B"])
    result = _marked(board, "result-1")
    assert "1. Ada; 2. Bo; 3. Ivy; 4. Cy; 5. Hal; 6. Gus" in _texts(result)
    assert "Your hand: 16 points; guessing +0" in _texts(result)
    assert _cards(result) == ["KS", "QS", "JS", "TS", "9C"]


@pytest.mark.parametrize("position", ["1A", "2A+1B", "3A+2B"])
@pytest.mark.parametrize("viewer", ["ada", "bo", "ivy"])
def test_nothing_of_another_s_seat_shows(states, position, viewer):
    """Every other participant's private seat changed (their tokens, draft, cards, hand, guessing):
    the viewer's drawing and words stay the same; their own changed, they change."""
    data = states[position].model_dump(mode="json")
    seen = _draw(states[position], viewer)
    others = copy.deepcopy(data)
    for q in PARTICIPANTS:
        if q != viewer:
            change_private_seat(others, q)
    assert _draw(GAME.State.model_validate(others), viewer) == seen
    own = copy.deepcopy(data)
    change_private_seat(own, viewer)
    assert _draw(GAME.State.model_validate(own), viewer) != seen


def test_bo_s_draft_is_not_on_ada_s_drawing(states):
    """bo's priorities are his alone: his 2D at 2 shows nowhere on ada's, his cards only as the
    public reveal's "given"."""
    board = _draw(states["2A+1B"])
    assert "2 of diamonds priority" not in board.alt
    assert "2D" not in _cards(_marked(board, "draft-1")) + _cards(_marked(board, "build-1"))


def test_every_position_of_a_bot_match_draws_small_and_well_formed():
    """The bots' whole match (guests, peeks, lowered priorities and the end): each participant's
    drawing is well-formed and, with its words, under 30 KB (the page's goal is 100 KB)."""
    played = play_through("clubs", "default", 7)
    for state in played.states:
        for who in state.participants:
            board = _draw(state, who)
            assert _local(ET.fromstring(board.svg)) == "svg"
            assert len(board.svg.encode()) + len(board.alt.encode()) < 30_000
    assert "The end: teams' scores" in _draw(played.states[-1], "p01").alt
