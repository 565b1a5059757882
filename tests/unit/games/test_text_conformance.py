"""Every game's plain-text grammar honours `TextGrammar`: generated bodies never raise and never drop
a line silently; every valid submission of every kind (and every valid immediate action of a
grammar that reads them) round-trips through `write_text` and `read_text`; each kind's help
example reads back; and the text of every view of a played match
names players by display name and shows a player nothing of another's private seat."""

from __future__ import annotations

import json
import random
import re
import string
from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from test_conformance import CASES, IDS, play_through, players_for, rule_sets

from game_core.cli import schemas
from game_core.games import registry
from game_core.games.abstrac.cards import DECK
from game_core.games.abstrac.models import Lay, Pick, Starter, Take
from game_core.games.capabilities import ActsAtOnce, AnswersInText
from game_core.games.clubs.cards import DECK as CLUBS_DECK
from game_core.games.clubs.models import BuildSubmission as ClubsBuild
from game_core.games.clubs.models import DraftSubmission as ClubsDraft
from game_core.games.clubs.models import Guess as ClubsGuess
from game_core.games.clubs.models import GuessSubmission as ClubsGuesses
from game_core.games.clubs.models import Peek as ClubsPeek
from game_core.games.clubs.models import Pick as ClubsPick
from game_core.games.clubs.models import PuzzleAnswer as ClubsAnswer
from game_core.games.clubs.models import PuzzleRequest as ClubsPuzzle
from game_core.games.clubs.models import Transfer as ClubsTransfer
from game_core.games.crates.models import MULTIPLIERS, MultipliersSubmission, Push, RoundSubmission
from game_core.games.domino.models import BidSubmission, Placement, PlaceSubmission, TileBid
from game_core.games.palindrome.construction import Construction
from game_core.games.palindrome.models import Bid, CardBid
from game_core.games.plain_text import MAX_REPEAT, LineGrammar
from game_core.games.protocol import AnyGame, Model, TextMove

GAMES = list(registry.AVAILABLE)
match_of = cache(play_through)
"""A seeded bot match, played once per module (the tests only read it)."""

# -- generated submissions, from the models -----------------------------------------------------

ID_CHARACTERS = string.ascii_letters + string.digits + "_-"
PLAYER_IDS = st.builds(str.__add__, st.sampled_from(ID_CHARACTERS), st.text(ID_CHARACTERS + ".", max_size=11)).filter(
    lambda s: not s.endswith(".")
)
"""Player ids as the match allows them ([A-Za-z0-9_-][A-Za-z0-9_.-]{0,11}), save one ending in a
full stop, which a line's trailing punctuation would take (a documented limit). Each generator
here that a regular expression describes draws from its characters instead: the same strings,
and hypothesis's `from_regex` cost nine tenths of a round trip test."""
INTS = st.integers(min_value=-(10**6), max_value=10**6)
DIGITS = st.text(string.digits, min_size=1, max_size=12)
DIGIT = st.sampled_from(string.digits)
CARDS = st.sampled_from(DECK)
DIRECTIONS = st.sampled_from(["left", "right"])
CLUBS_CARDS = st.sampled_from(CLUBS_DECK)
CELLS = st.builds("{}{}".format, st.sampled_from(string.ascii_uppercase), st.integers(1, 99))
"""A board's cells, [A-Z][1-9][0-9]?"""
CLUBS_TOKENS = st.builds("{}.{}".format, st.integers(1, 7), st.integers(1, 3))
"""[1-7]\\.[1-3]"""


def _step(action: str, **fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"action": st.just(action), **fields})


STEPS = st.one_of(
    _step("append", string=INTS, digits=DIGITS, position=st.none() | INTS),
    _step("duplicate", digit=DIGIT),
    _step("shift", digit=DIGIT, to=DIGIT),
    _step("insert", string=INTS),
    _step("eraser", string=INTS, position=INTS),
    _step("swap", string=INTS, first=INTS, second=INTS),
    _step("mirror", string=INTS),
    _step("keep"),
    _step("clone", string=INTS, source=INTS),
)

SUBMISSIONS: dict[str, dict[str, st.SearchStrategy[Model]]] = {
    "crates": {
        "multipliers": st.permutations(MULTIPLIERS).map(lambda order: MultipliersSubmission(multipliers=list(order))),
        "round": st.builds(
            RoundSubmission,
            pushes=st.lists(
                st.builds(Push, crate=PLAYER_IDS, direction=st.sampled_from(["left", "right"])), max_size=8
            ),
            ground=st.sampled_from(["rubber", "stone", "ice"]),
        ),
    },
    "palindrome": {
        "bid": st.builds(
            Bid,
            cards=st.lists(
                st.builds(CardBid, card=INTS, pack=INTS) | st.builds(CardBid, card=INTS, item=INTS), max_size=12
            ),
            garnets=st.integers(min_value=0, max_value=10**6),
            garnet_item=INTS,
        ),
        "construction": st.lists(STEPS, max_size=10).map(lambda steps: Construction.model_validate({"steps": steps})),
    },
    "abstrac": {
        "starter": st.builds(Starter, starter=PLAYER_IDS),
        "lay": st.builds(Lay, cards=st.lists(CARDS, max_size=5)),
        "pick": st.builds(Pick, count=INTS),
        "take": st.one_of(
            st.builds(Take, count=INTS), st.builds(Take, last=CARDS), st.builds(Take, cards=st.lists(CARDS, max_size=5))
        ),
    },
    "domino": {
        "bid": st.builds(
            BidSubmission,
            bids=st.lists(st.builds(TileBid, tile=INTS, chips=st.integers(min_value=0, max_value=10**6)), max_size=8),
        ),
        "place": st.builds(
            PlaceSubmission,
            placements=st.lists(
                st.builds(
                    Placement,
                    tile=INTS | st.just("square"),
                    cells=st.lists(CELLS, min_size=1, max_size=5),
                ),
                max_size=6,
            ),
        ),
    },
    "clubs": {
        "draft": st.tuples(
            st.lists(CLUBS_CARDS, min_size=6, max_size=6, unique=True),
            st.permutations(range(1, 7)),
            st.lists(st.none() | CLUBS_TOKENS, min_size=6, max_size=6),
            st.lists(st.integers(1, 6), unique=True, max_size=6),
        ).map(
            lambda parts: ClubsDraft(
                picks=[
                    ClubsPick(card=card, priority=priority, token=token)
                    for card, priority, token in zip(*parts[:3], strict=True)
                ],
                lowered=parts[3],
            )
        ),
        "build": st.builds(ClubsBuild, cards=st.lists(CLUBS_CARDS, min_size=1, max_size=5, unique=True)),
        "guess": st.dictionaries(
            PLAYER_IDS, st.lists(CLUBS_CARDS, min_size=1, max_size=5, unique=True), min_size=1, max_size=5
        ).map(lambda guesses: ClubsGuesses(guesses=[ClubsGuess(participant=p, cards=c) for p, c in guesses.items()])),
    },
}


ANSWER_WORDS = st.lists(
    st.text(string.ascii_letters + string.digits + "()+*/-", min_size=1, max_size=8), min_size=1, max_size=6
)
"""A puzzle's answer as a grammar reads it back: words joined by single spaces (a comma between
words reads as a space, the line's trailing punctuation is dropped: documented limits)."""

ACTIONS: dict[str, dict[str, st.SearchStrategy[Model]]] = {
    "clubs": {
        "puzzle": st.builds(ClubsPuzzle, puzzle=st.integers(1, 3)),
        "answer": st.builds(ClubsAnswer, puzzle=st.integers(1, 3), answer=ANSWER_WORDS.map(" ".join)),
        "transfer": st.builds(ClubsTransfer, to=PLAYER_IDS, garnets=st.integers(1, 1000)),
        "peek": st.builds(ClubsPeek, participant=PLAYER_IDS, round=st.integers(1, 7)),
    },
}
"""The immediate actions each grammar that reads actions (`AnswersInText`) reads, by hand."""


def read_actions(game: AnyGame) -> tuple[str, ...]:
    """The immediate actions the game's grammar reads (`AnswersInText`): those it has a model for."""
    if not isinstance(game.text, AnswersInText):
        return ()
    assert isinstance(game, ActsAtOnce), f"{game.id}'s grammar reads actions the game does not take"
    assert isinstance(game.text, LineGrammar), f"{game.id}'s grammar reading actions: list them here"
    return tuple(kind for kind in game.actions if kind in game.text.models)


def from_schema(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> st.SearchStrategy[Any]:
    """Any JSON `schema` allows, for the parts of JSON Schema pydantic writes for plain fields."""
    if "$ref" in schema:
        return from_schema(defs[schema["$ref"].removeprefix("#/$defs/")], defs)
    if "anyOf" in schema:
        return st.one_of([from_schema(option, defs) for option in schema["anyOf"]])
    if "const" in schema or "enum" in schema:
        return st.sampled_from(schema["enum"] if "enum" in schema else [schema["const"]])
    match schema.get("type"):
        case "null":
            return st.none()
        case "boolean":
            return st.booleans()
        case "integer":
            return st.integers(schema.get("minimum"), schema.get("maximum"))
        case "string" if "pattern" in schema:
            return st.from_regex(schema["pattern"], fullmatch=True)
        case "string":
            return st.text(min_size=schema.get("minLength", 0), max_size=schema.get("maxLength"))
        case "array":
            items = from_schema(schema.get("items", {}), defs)
            return st.lists(items, min_size=schema.get("minItems", 0), max_size=schema.get("maxItems"))
        case "object":
            fields = {name: from_schema(part, defs) for name, part in schema.get("properties", {}).items()}
            required = set(schema.get("required", ()))
            return st.fixed_dictionaries(
                {name: field for name, field in fields.items() if name in required},
                optional={name: field for name, field in fields.items() if name not in required},
            )
    raise NotImplementedError(f"no generator for {schema}: write the kind's by hand (SUBMISSIONS, ACTIONS)")


def generator(game: AnyGame, kind: str, is_action: bool) -> st.SearchStrategy[Model]:
    """The kind's generator by hand (a grammar narrower than its model: player ids, card names), or
    else every submission its model's JSON schema allows (a new game's plain fields)."""
    by_hand = (ACTIONS if is_action else SUBMISSIONS).get(game.id, {})
    if kind in by_hand:
        return by_hand[kind]
    model = game.actions[kind] if is_action and isinstance(game, ActsAtOnce) else game.submissions[kind]
    schema = model.model_json_schema()
    return from_schema(schema, schema.get("$defs", {})).map(model.model_validate)


def test_generators_by_hand_are_of_kinds_their_games_write():
    for game_id, kinds in SUBMISSIONS.items():
        assert set(kinds) <= set(registry.load(game_id).submissions), game_id
    for game_id, kinds in ACTIONS.items():
        assert set(kinds) <= set(read_actions(registry.load(game_id))), game_id


def test_a_generator_from_a_schema_gives_what_the_schema_allows():
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 0, "maximum": 3},
            "tag": {"anyOf": [{"const": "x"}, {"type": "null"}]},
            "ids": {"type": "array", "items": {"$ref": "#/$defs/Id"}, "minItems": 1, "maxItems": 2},
        },
        "required": ["n", "ids"],
        "$defs": {"Id": {"type": "string", "pattern": "^[a-c]{2}$"}},
    }

    @settings(max_examples=200, database=None)
    @given(from_schema(schema, schema["$defs"]))
    def allowed(value: dict[str, Any]) -> None:
        assert set(value) - {"tag"} == {"n", "ids"}
        assert 0 <= value["n"] <= 3
        assert value.get("tag", "x") in ("x", None)
        assert 1 <= len(value["ids"]) <= 2
        assert all(re.fullmatch("[a-c]{2}", id_) for id_ in value["ids"])

    allowed()
    with pytest.raises(NotImplementedError, match="write the kind's by hand"):
        from_schema({"type": "number"}, {})


KINDS = [(game, kind) for game in GAMES for kind in registry.load(game).submissions]
ACTION_KINDS = [(game, kind) for game in GAMES for kind in read_actions(registry.load(game))]
WRITTEN = [(game, kind, False) for game, kind in KINDS] + [(game, kind, True) for game, kind in ACTION_KINDS]
"""Every kind a grammar writes: each game's submissions, and the actions of those that read them."""
ROUND_TRIPS = 500
"""Valid submissions (or actions) round-tripped per kind."""
BATCH = 20
"""What one hypothesis example checks: hypothesis's engine costs more per example than writing and
reading a submission, or reading a body, does (profiled: nine tenths of the generated-bodies test),
so 25 examples of 20 check the same 500 a kind from the same generator in half the time (a failing
batch still shrinks to the one item that fails), and 500 of 20 10,000 bodies a game (a failing
body is the last the failure notes)."""


@pytest.mark.parametrize(("game_id", "kind", "is_action"), WRITTEN, ids=[f"{g}-{k}" for g, k, _ in WRITTEN])
def test_every_valid_submission_and_action_round_trips(game_id: str, kind: str, is_action: bool) -> None:
    game = registry.load(game_id)
    text = game.text

    checked: list[Model] = []

    @settings(max_examples=ROUND_TRIPS // BATCH, deadline=None)
    @given(st.lists(generator(game, kind, is_action), min_size=BATCH, max_size=BATCH))
    def round_trips(batch: list[Model]) -> None:
        for written in batch:
            lines = text.write_text(kind, written)
            # No short form: the written lines say their kind whatever the open phase accepts.
            reading = text.read_text(lines, ())
            assert reading.reasons == []
            assert reading.moves == [TextMove(kind, written.model_dump(mode="json"), action=is_action)]
        checked.extend(batch)

    round_trips()
    assert len(checked) >= ROUND_TRIPS


@pytest.mark.parametrize(("game_id", "rule_set"), CASES, ids=IDS)
def test_every_submission_the_bots_send_round_trips(game_id: str, rule_set: str) -> None:
    game, match = registry.load(game_id), match_of(game_id, rule_set, 7)
    assert {kind for kind, _ in match.sent}, "the bots sent something"
    for kind, submission in match.sent:
        lines = game.text.write_text(kind, submission)
        reading = game.text.read_text(lines, ())
        assert reading.reasons == [], (kind, lines)
        assert reading.moves == [TextMove(kind, submission.model_dump(mode="json"))], (kind, lines)


def test_each_action_line_is_an_action_of_its_own_in_the_order_written():
    text = registry.load("clubs").text
    reading = text.read_text(["PUZZLE 1", "BUILD AS", "puzzle 2", "answer 1 125, 347 gyul."], ("build",))
    assert reading.reasons == []
    assert reading.moves == [
        TextMove("puzzle", {"puzzle": 1}, action=True),
        TextMove("build", {"cards": ["AS"]}),
        TextMove("puzzle", {"puzzle": 2}, action=True),
        TextMove("answer", {"puzzle": 1, "answer": "125 347 gyul"}, action=True),
    ]


def test_more_equal_pushes_than_a_line_repeats_take_more_lines():
    text = registry.load("crates").text
    submission = RoundSubmission(pushes=[Push(crate="ann", direction="left")] * (MAX_REPEAT + 2))
    lines = text.write_text("round", submission)
    assert lines == [f"PUSH ann LEFT {MAX_REPEAT}", "PUSH ann LEFT 2", "GROUND STONE"]
    assert text.read_text(lines, ()).moves[0].submission == submission.model_dump(mode="json")


@pytest.mark.parametrize(("game_id", "kind"), KINDS + ACTION_KINDS, ids=[f"{g}-{k}" for g, k in KINDS + ACTION_KINDS])
def test_the_help_example_reads_back(game_id: str, kind: str) -> None:
    text = registry.load(game_id).text
    help_lines = text.text_help(kind)
    example = help_lines[help_lines.index("Example:") + 1 :]
    assert [move.kind for move in text.read_text(example, ()).moves] == [kind]
    assert all(len(line) <= 72 for line in help_lines)


@pytest.mark.parametrize("game_id", GAMES)
def test_match_schemas_prints_each_kinds_grammar(game_id: str) -> None:
    described = schemas.describe(game_id, None)
    game = registry.load(game_id)
    assert described["submission_text"] == {kind: game.text.text_help(kind) for kind in game.submissions}


# -- generated bodies: never raise, never drop a line -------------------------------------------


def _vocabulary(game: AnyGame) -> list[str]:
    """Words a body of this game may hold: its keywords (from its help), the words around them,
    numbers and some noise."""
    kinds = [*game.submissions, *read_actions(game)]
    words = {word for kind in kinds for line in game.text.text_help(kind) for word in line.split()}
    words |= {"L", "R", "AT", "AND", "ON", "TO", "INTO", "3R", "7Z", "3a9", "hello", "thanks!", "\u2212"}
    return sorted(words | {str(number) for number in range(-3, 12)} | {"99", "100", "10000000000000000000"})


NOISE = st.text(max_size=3)
"""Words from outside the vocabulary: hypothesis's text, odd characters and all."""
NOISE_WORDS = BATCH * 5
"""Odd words drawn for a batch of bodies: twice as many as its bodies hold (2 lines of 2.5 words,
half of them odd, on average), so that hypothesis draws more odd words a game than it did drawing
each body whole, and rare characters come up as often: a read planted to raise on a non-ASCII
digit failed for 3 games of 5 (5 runs of 9 before)."""
ENDS = ["", ".", ":", "!", "\r", " "]
CASES_OF_A_BODY = [str.upper, str.lower, str.title, str]
JOINTS = [" ", "  ", ", ", "\t", ","]
PLAYER_LISTS = [(), ("ann", "Bob"), ("LAY", "push")]
"""The players a body is read for: none, two, and two whose ids are keywords."""


def _body(rng: random.Random, vocabulary: list[str], noise: list[str]) -> list[str]:
    """Up to four lines of up to five words (each a vocabulary word or, as often, one of `noise`),
    in one case and one separator a body, each line with its own trailing punctuation (or a CR
    left over from CRLF)."""
    case, joint = rng.choice(CASES_OF_A_BODY), rng.choice(JOINTS)
    lines = []
    for _ in range(rng.randint(0, 4)):
        words = [rng.choice(vocabulary if rng.random() < 0.5 else noise) for _ in range(rng.randint(0, 5))]
        lines.append(case(joint.join(words)) + rng.choice(ENDS))
    return lines


def _accepts(game: AnyGame) -> list[tuple[str, ...]]:
    """What each phase of each rule set accepts, nothing, and everything."""
    phases = {kind.accepts for rule_set in rule_sets(game) for kind in game.timeline(game.Settings(rule_set=rule_set))}
    return sorted(phases | {(), tuple(game.submissions)})


CODE = re.compile(r"^[a-z]+(_[a-z]+)*$")


BODIES = 10_000
"""Generated bodies read per game (`BATCH` to a hypothesis example)."""


@pytest.mark.parametrize("game_id", GAMES)
def test_generated_bodies_never_raise_and_every_line_is_read_or_named(game_id: str) -> None:
    game = registry.load(game_id)
    vocabulary, accepts = _vocabulary(game), _accepts(game)
    read: list[object] = []

    # Hypothesis draws the odd words and a seed an example; a random of that seed builds the batch
    # of bodies from them: drawing each body's two dozen other choices through hypothesis's engine
    # cost nine tenths of the test (14.5 s of CPU a game, now 4.5), for choices a uniform draw makes.
    @settings(max_examples=BODIES // BATCH, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(NOISE, min_size=NOISE_WORDS, max_size=NOISE_WORDS), st.integers(min_value=0))
    def reads(noise: list[str], seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(BATCH):
            body = (_body(rng, vocabulary, noise), rng.choice(accepts), rng.choice(PLAYER_LISTS))
            note(f"body, accepts, players: {body!r}")
            _reads_every_line(game, *body)
            read.append(body)

    reads()
    assert len(read) >= BODIES


def _reads_every_line(game: AnyGame, lines: list[str], accepts: tuple[str, ...], players: tuple[str, ...]) -> None:
    """The body is read without raising, into moves of the game's kinds and reasons with codes;
    each line is either named by a reason or, read alone, read as a move."""
    text = game.text
    reading = text.read_text(lines, accepts, players)
    assert all(move.kind in (read_actions(game) if move.action else game.submissions) for move in reading.moves)
    json.dumps([move.submission for move in reading.moves])
    for reason in reading.reasons:
        assert CODE.match(reason.code), reason
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            assert not any(reason.text.startswith(f"line {number} ") for reason in reading.reasons)
            continue
        alone = text.read_text([line], accepts, players)
        if alone.reasons:
            assert any(reason.text.startswith(f"line {number} ") for reason in reading.reasons), line
        else:
            assert alone.moves, f"{line!r} is neither read nor named"


# -- views as text --------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=CASES, ids=IDS)
def played(request: pytest.FixtureRequest) -> tuple[AnyGame, tuple[str, ...], list[Model]]:
    game_id, rule_set = request.param
    states = match_of(game_id, rule_set, 7).states
    game = registry.load(game_id)
    return game, players_for(game), states


NAMES = ["Ada Lovelace", "Bob", "Cy", "Dee", "Eve", "Fay"]


def test_a_rendered_view_names_every_player_by_display_name(played):
    game, players, states = played
    names = dict(zip(players, NAMES, strict=False))
    ids = re.compile("|".join(rf"\b{re.escape(player)}\b" for player in players))
    for state in states:
        for viewer in (None, *players):
            rendered = game.text.render_view(game.view(state, viewer), names)
            assert not ids.search(rendered), (viewer, ids.search(rendered))
    assert any(name in rendered for name in names.values())


def _private_lines(game: AnyGame, view: dict[str, Any], names: dict[str, str]) -> set[str]:
    """The lines a view's private part adds to the text of its public part."""
    public = set(game.text.render_view({"public": view["public"]}, names).split("\n"))
    return set(game.text.render_view(view, names).split("\n")) - public


def test_a_rendered_view_shows_nothing_of_another_players_private_seat(played):
    game, players, states = played
    names = dict(zip(players, NAMES, strict=False))
    for state in states:
        views = {player: game.view(state, player) for player in players}
        private = {player: _private_lines(game, views[player], names) for player in players}
        for a in players:
            rendered = set(game.text.render_view(views[a], names).split("\n"))
            for b in players:
                if b != a:
                    assert not (private[b] - private[a]) & rendered, (a, b)
