"""Moves and the grammar's examples as a person reads them: every participant by name.

A move is stored with participants' ids, and the grammar reads a name as well as an id
(`protocol.PlayerRef`). So what a person reads back (the echo of a move, STATUS's "what stands",
a taken action) names participants as they know them, and still reads as the same move when sent
back; and each example names a participant of this match, never someone from the rules' pages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from game_core.games.capabilities import ActsAtOnce
from game_core.games.plain_text import LineGrammar
from game_core.games.protocol import PARTICIPANT_FORMAT, AnyGame, Model

EXAMPLE = "Example:"
"""The line of a kind's help (`LineGrammar.text_help`) the example's lines follow."""


def _models(game: AnyGame) -> dict[str, type[Model]]:
    actions = dict(game.actions) if isinstance(game, ActsAtOnce) else {}
    return {**actions, **game.submissions}


@cache
def _schema(game_id: str, kind: str, model: type[Model]) -> dict[str, Any]:
    """The kind's JSON Schema, written once a process (it takes pydantic milliseconds)."""
    return model.model_json_schema()


def _renamed(defs: Mapping[str, Any], node: Mapping[str, Any], value: Any, to: Callable[[str], str]) -> Any:
    """`value` with each string the schema `node` marks as a participant replaced by `to` of it."""
    if "$ref" in node:
        node = defs.get(node["$ref"].rsplit("/", 1)[-1], {})
    for branch in node.get("anyOf", ()):  # an optional field: the branch that is not null
        value = _renamed(defs, branch, value, to)
    if node.get("format") == PARTICIPANT_FORMAT and isinstance(value, str):
        return to(value)
    if isinstance(value, dict) and "properties" in node:
        fields = node["properties"]
        return {key: _renamed(defs, fields.get(key, {}), item, to) for key, item in value.items()}
    if isinstance(value, list):
        return [_renamed(defs, node.get("items", {}), item, to) for item in value]
    return value


def _with_participants(game: AnyGame, kind: str, data: Any, to: Callable[[str], str]) -> Model:
    """The kind's model of `data`, each participant in it replaced by `to` of them."""
    model = _models(game)[kind]
    schema = _schema(game.id, kind, model)
    return model.model_validate(_renamed(schema.get("$defs", {}), schema, data, to))


def written(game: AnyGame, kind: str, submission: Any, names: Mapping[str, str]) -> list[str]:
    """A stored or accepted submission or action (its JSON) in the game's grammar, naming each
    participant by name (`names`: id -> name)."""
    return game.text.write_text(kind, _with_participants(game, kind, submission, lambda who: names.get(who, who)))


def kind_help(game: AnyGame, kind: str, names: Mapping[str, str], reader: str | None, phase: str | None) -> list[str]:
    """The kind's help in the game's grammar, its example naming a participant of this match:
    the first other than the reader (`names`: id -> name, in seat order), with the values the
    game fits to the open `phase` (its tiles, its rounds), where one is open."""
    lines = game.text.text_help(kind)
    text = game.text
    if not isinstance(text, LineGrammar) or EXAMPLE not in lines or kind not in text.examples:
        return lines
    someone = next((name for who, name in names.items() if who != reader), None) or next(iter(names.values()), "")
    example = (text.example(kind, phase) if phase else text.examples[kind]).model_dump(mode="json")
    # The example's participants are placeholders: each becomes this one of the match
    shown = text.write_text(kind, _with_participants(game, kind, example, lambda _placeholder: someone))
    return [*lines[: lines.index(EXAMPLE) + 1], *("  " + line for line in shown)]
