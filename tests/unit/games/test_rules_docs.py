"""The rules written for players (HELP RULES mails them): each game's `rules.md` in its package is
`docs/rules/<game>.md`, reads as plain text, documents every rule set and every line of its
grammar, and its worked example is played here through the game's own functions: the moves are
read from the document in the mail grammar, and what the document says happened is checked
against hand-worked values (in the comments) and against the game.
"""

from __future__ import annotations

import random
import re
import typing
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from game_core.games import registry
from game_core.games.capabilities import ActsAtOnce
from game_core.games.plain_text import LineGrammar
from game_core.games.protocol import AnyGame, Resolution

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs" / "rules"
MAIL = re.compile(r"^From (\w+):\n\n((?:    .*\n)+)", re.M)
"""A worked example's mail: "From ada:", a blank line, then its lines indented by four spaces."""
PLAYERS = ("ada", "bo", "cy")


def rules(game_id: str) -> str:
    return registry.load(game_id).rules_text


def worked(game_id: str) -> list[tuple[str, dict[str, list[str]]]]:
    """The worked example's sections in order: each heading, and the mails under it by sender."""
    example = rules(game_id).split("\n## Worked example\n", 1)[1]
    sections = []
    for section in re.split(r"^### ", example, flags=re.M)[1:]:
        heading, _, body = section.partition("\n")
        mails = {sender: [line.strip() for line in block.splitlines()] for sender, block in MAIL.findall(body)}
        sections.append((heading.strip(), mails))
    return sections


def said(game_id: str, sentence: str) -> bool:
    """Whether the document says `sentence`, whatever its line breaks."""
    return " ".join(sentence.split()) in " ".join(rules(game_id).split())


def play(game: AnyGame, state: Any, heading: str, mails: dict[str, list[str]], players=PLAYERS) -> Any:
    """Resolve the open phase, which must be the one the heading names, with the mails read in the
    game's grammar (each read without a reason and legal in this position)."""
    opening = game.open_phase(state)
    assert opening is not None and opening.name == heading
    sent = {}
    for player, lines in mails.items():
        reading = game.text.read_text(lines, opening.accepts, players)
        assert reading.reasons == [], (player, reading.reasons)
        sent[player] = {
            move.kind: game.submissions[move.kind].model_validate(move.submission) for move in reading.moves
        }
        for kind, submission in sent[player].items():
            assert game.check(state, player, kind, submission) == [], (player, kind)
    return game.resolve(state, Resolution(submissions=sent, rng=random.Random(0)))


# -- every game -------------------------------------------------------------------------------


def shipped(game_id: str) -> bool:
    """Whether the layer holds the game (a test's throwaway game, registered from elsewhere, has no
    page in docs/)."""
    return type(registry.load(game_id)).__module__.startswith("game_core.games.")


SHIPPED = [game_id for game_id in registry.AVAILABLE if shipped(game_id)]


@pytest.mark.parametrize("game_id", SHIPPED)
def test_docs_rules_is_the_rules_the_game_mails(game_id) -> None:
    doc = DOCS / f"{game_id}.md"
    regenerate = f"run: bin/match-schemas {game_id} --rules > docs/rules/{game_id}.md"
    assert doc.exists(), f"docs/rules/{game_id}.md is missing; {regenerate}"
    assert doc.read_text(encoding="utf-8") == rules(game_id), f"docs/rules/{game_id}.md is stale; {regenerate}"


def test_docs_rules_holds_no_game_that_is_not_registered() -> None:
    assert sorted(path.stem for path in DOCS.glob("*.md")) == sorted(SHIPPED)


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_the_rules_read_as_plain_text(game_id) -> None:
    text = rules(game_id)
    assert text.startswith(f"# {registry.load(game_id).title}: the rules\n")
    long = [line for line in text.splitlines() if len(line) > 100]
    assert long == [], "a mail reader shows at most about 100 columns"
    # No Markdown that reads badly as plain text: tables, links, emphasis
    assert not re.search(r"^\||\]\(|\*\*|__", text, re.M)
    assert "HELP RULES" in text and "## Worked example" in text


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_the_rules_name_every_rule_set_and_show_every_line_of_the_grammar(game_id) -> None:
    game = registry.load(game_id)
    text = rules(game_id)
    rule_sets = typing.get_args(game.Settings.model_fields["rule_set"].annotation)
    for rule_set in rule_sets:
        assert rule_set == "default" or f"- {rule_set} (" in text or f"### {rule_set} (" in text, rule_set
    kinds = [*game.submissions, *(game.actions if isinstance(game, ActsAtOnce) else ())]
    assert isinstance(game.text, LineGrammar)
    for kind in kinds:
        if kind not in game.text.examples:
            continue  # an action only the host takes (Clubs' tokens): players send no such line
        help_lines = game.text.text_help(kind)
        example = help_lines[help_lines.index("Example:") + 1 :]
        missing = [line.strip() for line in example if f"    {line.strip()}" not in text]
        assert missing == [], (kind, missing)


# -- each game's worked example -------------------------------------------------------------


def test_crates_worked_example() -> None:
    game = registry.load("crates")
    (pregame, round_1) = worked("crates")
    state = game.setup(game.Settings(), PLAYERS, random.Random(0))
    state = play(game, state, *pregame)
    state = play(game, state, *round_1)
    # By hand: ada's crate R3 L1 on ice: (3 - 1) x 3 = 6, 0 -> 6 passes 5: 1 x multiplier 2 = 2;
    # bo's R3 on stone: 0 -> 3, 0; cy's R1 on rubber: stays at 0, 0. bo pushed 4 times: 1 garnet.
    public = game.view(state, None)["public"]
    assert public["reveals"] == [{"round": 1, "mod5": {"ada": 1, "bo": 3, "cy": 0}}]
    assert {p: game.view(state, p)["private"]["total"] for p in PLAYERS} == {"ada": 2, "bo": 0, "cy": 0}
    assert game.garnet_cost("round", game.submissions["round"].model_validate(bo_round(round_1[1]))) == 1
    assert said("crates", "Everyone is told the remainders: ada 1, bo 3, cy 0.")
    assert said("crates", "ada alone is told her total: 2. bo and cy are told theirs: 0.")
    assert said("crates", "bo pushed 4 times: 1 garnet spent.")


def bo_round(mails: dict[str, list[str]]) -> dict[str, Any]:
    (move,) = registry.load("crates").text.read_text(mails["bo"], ("round",), PLAYERS).moves
    return move.submission


PACKS = ["121", "343", "565", "787", "909", "012", "345", "678", "901", "234"]
"""Round 1's packs as the worked example's host set them (every digit at least twice)."""


def test_palindrome_worked_example() -> None:
    game = registry.load("palindrome")
    bidding, construction, scoring = worked("palindrome")
    settings = game.Settings(rule_set="mm8", packs={1: PACKS}, items={1: ["Mirror"]})
    state = game.setup(settings, PLAYERS, random.Random(0))
    state = game.resolve(state, Resolution(submissions={}, rng=random.Random(0)))  # the pregame takes nothing
    state = play(game, state, *bidding)
    # By hand: pack 1 has 9 (ada), 9 (bo), 4 (cy): the highest unmatched card is cy's 4.
    # Pack 2: bo's 6 over cy's 2. The Mirror: ada 8 + 7 = 15, bo 5 + 2 x 5 = 15, cy 3: cy's 3.
    log = game.view(state, None)["public"]["round_log"][0]
    assert [pack.get("received_by") for pack in log["packs"][:3]] == ["cy", "bo", None]
    assert [item.get("received_by") for item in log["items"]] == ["cy"]
    assert game.view(state, "bo")["private"]["garnets_spent"] == 2
    state = play(game, state, *construction)
    # By hand: bo's string 1 is 343; cy's is 121 and then its mirror: 121121
    assert game.view(state, "bo")["private"]["strings"] == ["343", "", ""]
    assert game.view(state, "cy")["private"]["strings"] == ["121121", "", ""]
    assert said("palindrome", "cy receives the Mirror; bo's 2 garnets are spent.")
    assert said(
        "palindrome", "bo's string 1 is 343. cy's string 1 is 121, then the Mirror appends its reverse: 121121."
    )

    from game_core.games.palindrome.rules import garnet_award
    from game_core.games.palindrome.scoring import score_all

    heading, _ = scoring
    assert heading == "Scoring at the end"
    final = rules("palindrome").split("### Scoring at the end", 1)[1]
    strings = {player: line.split() for player, line in re.findall(r"^    (\w+): (.*)$", final, re.M)}
    assert strings == {"ada": ["12321", "44", "505"], "bo": ["7777", "12321", "9"], "cy": ["131", "353", "919"]}
    scores = score_all(strings)
    # By hand (the document's lines): ada 11 + 4 + 5 = 20, bo 8 + 11 + 3 = 22, cy 6 + 7 + 8 = 21
    assert {p: [s.total for s in scores[p]] for p in PLAYERS} == {"ada": [11, 4, 5], "bo": [8, 11, 3], "cy": [6, 7, 8]}
    # Winners 5; 21 and 20 of 22 are both at least 80%: 4 each
    assert [garnet_award(t, 22, t == 22) for t in (22, 21, 20)] == [5, 4, 4]
    assert said("palindrome", "ada: 11 + 4 + 5 = 20.") and said("palindrome", "bo: 8 + 11 + 3 = 22.")
    assert said("palindrome", "cy: 6 + 7 + 8 = 21.")
    assert said("palindrome", "bo wins with 22: 2 ToL and 5 garnets. ada is EC with 20.")


def test_abstrac_worked_example() -> None:
    from game_core.games.abstrac.cards import points, ratio

    game = registry.load("abstrac")
    sections = worked("abstrac")
    moves = [(heading, mails) for heading, mails in sections if mails]
    state = game.setup(game.Settings(rule_set="row"), ("ada", "bo"), random.Random(0))
    for heading, mails in moves:
        state = play(game, state, heading, mails, ("ada", "bo"))
    # By hand: ada lays 2G 4B 3R, bo 5G 1G, ada 6Y 6R: 7 laid, 17 to go, bo to lay
    public = game.view(state, None)["public"]
    assert public["row"] == ["2G", "4B", "3R", "5G", "1G", "6Y", "6R"]
    assert game.open_phase(state).actors == ("bo",)
    assert said("abstrac", "the row is now, from the front: 2G 4B 3R 5G 1G 6Y 6R. 17 cards are still to be laid")

    # The seed's scores. row: sets 2 + 8, runs 6 + 3 + 3 = 22 over 14 cards = 11/7
    row_hand = "2R 3R 4R 5R 6R 1Y 3Y 4Y 5Y 1G 3G 1B 2B 3B".split()
    assert points(row_hand) == 22 and ratio(row_hand) == Fraction(11, 7)
    assert said("abstrac", "22 points over 14 cards: 22/14 = 11/7, about 1.5714.")
    # deal: four 2s 8, three 3s 2, red 1-4 4, green 1-3 3 = 17; times the opponent's 11 cards
    from game_core.games.abstrac.deal import deal_scores

    deal_hand = "1R 2R 3R 4R 6R 2Y 3Y 5Y 6Y 1G 2G 3G 2B".split()
    assert points(deal_hand) == 17
    assert deal_scores({"you": 17, "them": 5}, {"you": 13, "them": 11})[0]["you"] == 187
    assert deal_scores({"you": 17, "them": 0}, {"you": 13, "them": 11})[0] == {"you": 0, "them": 187}
    assert said("abstrac", "your deal score is 17 x 11 = 187.")


DOMINO_TILES = ["O4", "I3", "L4", *["I5"] * 17]
"""Auction 1's tiles as the worked example's host set them: tile 1 an O4, 2 an I3, 3 an L4."""


def test_domino_worked_example() -> None:
    from game_core.games.domino.rules import outcome

    game = registry.load("domino")
    auction, placing = worked("domino")
    settings = game.Settings(tiles={1: DOMINO_TILES, 2: DOMINO_TILES, 3: DOMINO_TILES})
    state = game.setup(settings, PLAYERS, random.Random(0))
    state = play(game, state, *auction)
    # By hand: tile 1: 40 twice, 12 alone: cy. Tile 2: 10 twice, nothing else: nobody. Tile 3: bo.
    public = game.view(state, None)["public"]
    assert [tile.get("won_by") for tile in public["tiles"][:3]] == ["cy", None, "bo"]
    assert public["chips_left"] == {"ada": 250, "bo": 255, "cy": 278}
    assert said("domino", "Chips spent: ada 50, bo 45, cy 22. Chips left: ada 250, bo 255, cy 278.")
    state = play(game, state, *placing)
    boards = game.view(state, None)["public"]["boards"]
    assert sorted(c for piece in boards["cy"] for c in piece["cells"]) == ["A1", "A2", "B1", "B2", "C1"]
    cy_place = game.submissions["place"].model_validate(
        game.text.read_text(placing[1]["cy"], ("place",), PLAYERS).moves[0].submission
    )
    assert game.garnet_cost("place", cy_place) == 2
    # By hand: cy's 2 x 2 at A1 with C1 outside; bo's L4 holds no 2 x 2; ada's board is empty
    sides = {p: (outcome(state, p).side, outcome(state, p).outside) for p in PLAYERS}
    assert sides == {"ada": (0, 0), "bo": (1, 3), "cy": (2, 1)}
    assert said("domino", "cy's largest square would be 2 x 2 (k = 2: 4 garnets), with 1 cell outside it")


def test_clubs_worked_example() -> None:
    from game_core.games.clubs.draft import resolve_draft
    from game_core.games.clubs.showdown import guess_points, hand_points, ranking

    game = registry.load("clubs")
    (draft_heading, drafts), (hands_heading, builds) = worked("clubs")
    assert (draft_heading, hands_heading) == ("A draft", "Hands and a guess")

    def read(lines: list[str], kind: str) -> Any:
        (move,) = game.text.read_text(lines, (kind,), ("ada", "bo", "cy", "dan", "eve")).moves
        return game.submissions[kind].model_validate(move.submission)

    sent = {player: read(lines, "draft") for player, lines in drafts.items()}
    won, reveal = resolve_draft(sent, {"ada": {"1.1": 40}, "bo": {"1.2": 90}})
    # By hand: AS 1 and 2-lowered-to-1: shared, discarded; 7C: 40 x 2 = 80 beats 90 x 1 = 90; KH 3 and 3
    assert won == {"ada": ["2S", "7C", "9H", "QD"], "bo": ["3S", "9S", "JD"]}
    twice = {card.card: card.given for card in reveal if card.drafted == 2}
    assert twice == {"AS": False, "7C": True, "KH": False}
    assert game.garnet_cost("draft", sent["bo"]) == 2
    assert said("clubs", "ada receives 7C QD 2S 9H; bo receives JD 3S 9S.")

    hands = {player: read(lines, "build").cards for player, lines in builds.items()}
    # By hand: cy's three queens first (15); the kings tie and bo's has a club: 10 + 1; ada 6
    assert hand_points(hands, ranking(hands)) == {"cy": 15, "bo": 11, "ada": 6}
    assert said("clubs", "bo is second, 10 points plus 1 for the club, 11. ada is third: 6 points.")
    (guess_line,) = [line for line in rules("clubs").splitlines() if line.strip().startswith("GUESS dan")]
    (guess,) = read([guess_line.strip()], "guess").guesses
    # By hand: 3 right, 2 wrong, the right type: 3 - 2 + 2 = 3
    assert guess_points(guess.cards, ["5C", "6C", "7C", "8C", "9C"]) == (3, True)
    assert said("clubs", "The type is right (a straight flush): +2. eve takes 3 points from dan.")
