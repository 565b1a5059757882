"""A kind's form, built from its JSON schema (what `match-schemas` prints), and the form's fields
read back into the JSON the webhook would carry; the service judges it as it judges the webhook's.

What the schema says becomes an input the browser checks too (`required`, `min`, `max`,
`pattern`, `maxlength`, a choice list for an `enum`): a number is a number input, a field
naming a participant (`PARTICIPANT_FORMAT`) a choice of the match's participants by name (the
page fills them in: a form is the game's, built once), a list of participants in order such a
choice for each place, a list of numbers or words one text input (separated by spaces or
commas), a list of a fixed few numbers that many inputs, a list of small objects a few rows of
their fields. A kind whose schema is none of these (Palindrome's construction: a list of
different instructions) is written in the game's own plain-text grammar, as by mail, its help
beside the box.

The host's page builds its command forms here too (`command_parts`, from the host commands'
models): lists of words there are one a line (a word may hold spaces), its fields posted under
their own names (`Form.prefix`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from game_core.errors import Malformed, Reason
from game_core.games.protocol import PARTICIPANT_FORMAT, AnyGame

ROWS = 12
"""Rows offered for a list of objects with no smaller bound (pushes, bids, guesses): an empty row
is left out, so fewer are sent; more when what stands has more (`rows_for`)."""
FIXED_INPUTS = 8
"""A list of exactly this many numbers or fewer gets one input each (Crates' six multipliers)."""
FIELD_PREFIX = "f."
"""Each input's name in the posted form is this and its path: apart from the form's own fields
(csrf, kind, delivery, phase, number)."""
LINES = "lines"
"""The field of a kind written in the game's grammar."""
NO_FORM = "x-no-form"
"""A schema property the form leaves out (the rules never let it differ from its default)."""
LONG_TEXT = 2048
"""A text allowed longer than this (a message, not a name or a URL) is a box of several lines."""
_SCALARS = ("integer", "string", "boolean")
FEW_VALUES = 12
"""A whole number bounded to this many values or fewer is a choice of them (clicked, not typed)."""
_INTEGERS = r"\s*-?\d+(\s*[,\s]\s*-?\d+)*\s*"
_WORDS = r"\s*[^,\s]+(\s*[,\s]\s*[^,\s]+)*\s*"


@dataclass(frozen=True)
class Input:
    """One input of a form: `name` is its path in the submission ("ground", "pushes.0.crate")."""

    name: str
    label: str
    widget: str
    """number, text, list (words or numbers in one box), select, participant (a choice of the
    match's participants, sent as the id), checkbox, lines (the grammar)."""
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    pattern: str | None = None
    max_length: int | None = None
    options: tuple[str, ...] = ()
    hint: str = ""
    integers: bool = False
    """A list's items, or a text that may be a number (Domino's tile or "square"), are numbers (read as such)."""
    one_a_line: bool = False
    """A list's items are written one a line (names, which hold spaces), not in one box."""
    blank: str | None = None
    """A choice's words for choosing nothing, offered only where the rules say what nothing means
    (the schema's default); None: no such choice."""


@dataclass(frozen=True)
class Group:
    """Inputs shown together: a row of a list of objects, or a list of a fixed few numbers."""

    legend: str
    inputs: tuple[Input, ...]
    columns: int
    """Inputs a row: a list of objects' fields, or all of a fixed few numbers."""
    ranking: bool = False
    """A list of participants in order, a choice each place: the page shows as many places as the
    match has participants (the form is built once, for any match)."""


@dataclass(frozen=True)
class Form:
    kind: str
    description: str
    parts: tuple[Input | Group, ...]
    help: tuple[str, ...] = field(default=())
    """The game's own help for the kind (its mail grammar, with an example)."""
    prefix: str = FIELD_PREFIX
    """Before each input's path in the posted form (the host's forms: none)."""

    @property
    def inputs(self) -> list[Input]:
        found: list[Input] = []
        for part in self.parts:
            found += part.inputs if isinstance(part, Group) else [part]
        return found


def _resolved(schema: Mapping[str, Any], node: Mapping[str, Any]) -> Mapping[str, Any]:
    """`node` with a `$ref` followed, and an optional (`anyOf` with null) as its one other type."""
    if "$ref" in node:
        node = schema.get("$defs", {})[node["$ref"].rsplit("/", 1)[1]]
    options = [option for option in node.get("anyOf", ()) if option.get("type") != "null"]
    if len(options) == 1:
        return {**_resolved(schema, options[0]), **{k: v for k, v in node.items() if k != "anyOf"}}
    return node


def _title(name: str, node: Mapping[str, Any]) -> str:
    return str(node.get("title") or name.replace("_", " ").capitalize())


def _scalar(
    schema: Mapping[str, Any], name: str, node: Mapping[str, Any], required: bool, one_a_line: bool = False
) -> Input | None:
    node = _resolved(schema, node)
    kind = node.get("type")
    label = _title(name.rsplit(".", 1)[-1], node)
    hint = str(node.get("description") or "").split("\n")[0]
    if "anyOf" in node:  # a number or a word (Domino's tile or "square")
        if all(option.get("type") in _SCALARS for option in node["anyOf"]):
            numeric = any(option.get("type") == "integer" for option in node["anyOf"])
            return Input(name, label, "text", required, hint=hint, max_length=40, integers=numeric)
        return None
    if "enum" in node:
        options = tuple(str(v) for v in node["enum"])
        return Input(name, label, "select", required, options=options, hint=hint, blank=_blank(node, required))
    if kind == "integer":
        return _integer(name, label, required, _least(node), node.get("maximum"), hint)
    if kind == "string" and node.get("format") == PARTICIPANT_FORMAT:
        return Input(name, label, "participant", required, hint=hint)
    if kind == "string":
        pattern = node.get("pattern")
        return Input(
            name,
            label,
            "text",
            required,
            pattern=pattern.removeprefix("^").removesuffix("$") if pattern else None,
            max_length=node.get("maxLength", 200),
            hint=hint,
        )
    if kind == "boolean":
        return Input(name, label, "checkbox", hint=hint)
    if kind == "array":
        items = _resolved(schema, node.get("items", {}))
        if items.get("type") not in ("integer", "string") or "enum" in items:
            return None
        integers = items["type"] == "integer"
        lines = one_a_line and not integers
        bounds = _count_words(node.get("minItems"), node.get("maxItems"))
        said = (
            f"{bounds}, one a line."
            if lines
            else f"{bounds} {'numbers' if integers else 'words'}, separated by spaces or commas."
        )
        hint = " ".join(part for part in (hint, said) if part)
        pattern = None if lines else _INTEGERS if integers else _WORDS
        listed = required and node.get("minItems", 0) > 0
        return Input(name, label, "list", listed, pattern=pattern, hint=hint, integers=integers, one_a_line=lines)
    return None


def _integer(name: str, label: str, required: bool, least: int | None, most: int | None, hint: str = "") -> Input:
    """A number input; a choice of each value where the schema bounds it to a few (Crates'
    multipliers -1 to 2, Clubs' priorities 1 to 6), a blank first: none chosen yet, or a row
    left empty."""
    if least is None or most is None or most - least >= FEW_VALUES:
        return Input(name, label, "number", required, least, most, hint=hint)
    values = tuple(str(value) for value in range(least, most + 1))
    blank = "(choose one)" if required else "(none)"
    return Input(name, label, "select", required, least, most, options=values, hint=hint, integers=True, blank=blank)


def _blank(node: Mapping[str, Any], required: bool) -> str | None:
    """A choice's blank option: the rules' default named, or "(none)" where nothing is allowed;
    none where a choice is required or the schema gives no default."""
    if required or "default" not in node:
        return None
    return "(none)" if node["default"] is None else f"(as the rules default: {node['default']})"


def _least(node: Mapping[str, Any]) -> int | None:
    """An integer's least value: its minimum, or one more than its exclusive minimum (`gt=0`)."""
    if "exclusiveMinimum" in node:
        return int(node["exclusiveMinimum"]) + 1
    return node.get("minimum")


def _count_words(least: int | None, most: int | None) -> str:
    if least is not None and least == most:
        return f"Exactly {least}"
    if least and most is not None:
        return f"{least} to {most}"
    if most is not None:
        return f"At most {most}"
    return f"At least {least}" if least else "Any number of"


def _part(
    schema: Mapping[str, Any], name: str, node: Mapping[str, Any], required: bool, rows: int, one_a_line: bool
) -> Input | Group | None:
    node = _resolved(schema, node)
    if node.get("type") != "array":
        return _scalar(schema, name, node, required, one_a_line)
    items = _resolved(schema, node.get("items", {}))
    most = node.get("maxItems")
    if items.get("format") == PARTICIPANT_FORMAT:
        return _ranking(name, node, most or rows)
    if items.get("type") == "integer" and most is not None and most == node.get("minItems") and most <= FIXED_INPUTS:
        title = _title(name, node)
        inputs = tuple(
            _integer(f"{name}.{i}", f"{title} {i + 1}", True, _least(items), items.get("maximum")) for i in range(most)
        )
        return Group(_fixed_legend(name, node, items), inputs, most)
    if items.get("type") != "object":
        return _scalar(schema, name, node, required, one_a_line)
    rows = min(most or rows, rows)
    fields = items.get("properties", {})
    cells: list[Input] = []
    for i in range(rows):
        for key, sub in fields.items():
            found = _scalar(schema, f"{name}.{i}.{key}", sub, False, one_a_line)
            if found is None:
                return None
            # the hints go in the legend; a choice's blank is the row left empty
            blank = found.blank or ("(none)" if found.widget == "select" else None)
            cells.append(replace(found, label=f"{found.label} ({i + 1})", hint="", blank=blank))
    hints = [f"{cell.label.rsplit(' (', 1)[0]}: {cell.hint}" for cell in _row_hints(schema, fields, one_a_line)]
    least = node.get("minItems") or 0
    said = (
        f"{_title(name, node)}: {_count_words(least or None, most).lower()}, one a row; a row left empty is not sent."
    )
    return Group(" ".join([said, *hints]), tuple(cells), len(fields))


def _fixed_legend(name: str, node: Mapping[str, Any], items: Mapping[str, Any]) -> str:
    """A fixed few numbers' legend: their title, the values they take (the schema's words, and its
    bounds on each), so a player knows them before a first try."""
    least, most = _least(items), items.get("maximum")
    bounds = ""
    if least is not None and most is not None and most - least < FEW_VALUES:
        bounds = ""  # a choice of each value: the choices say them
    elif least is not None and most is not None:
        bounds = f"Each a whole number from {least} to {most}."
    elif least is not None or most is not None:
        bounds = f"Each a whole number {'at least' if most is None else 'at most'} {most if least is None else least}."
    said = " ".join(part for part in (str(node.get("description") or "").split("\n")[0], bounds) if part)
    return f"{_title(name, node)}: {said}" if said else _title(name, node)


def _ranking(name: str, node: Mapping[str, Any], places: int) -> Group:
    """A choice of a participant for each place of a list in order (decide's tied players, best
    first): chosen, not typed, and in order without a script; a place left empty is not sent."""
    least = node.get("minItems") or 0
    title = _title(name, node)
    inputs = tuple(Input(f"{name}.{i}", f"{title} {i + 1}", "participant", i < least) for i in range(places))
    said = f"{title}: {_count_words(least or None, node.get('maxItems')).lower()}, in order, one a place"
    return Group(f"{said}; a place left empty is not sent.", inputs, 1, ranking=True)


def _row_hints(schema: Mapping[str, Any], fields: Mapping[str, Any], one_a_line: bool) -> list[Input]:
    found = (_scalar(schema, key, sub, False, one_a_line) for key, sub in fields.items())
    return [one for one in found if one is not None and one.hint]


def parts_of(schema: Mapping[str, Any], rows: int = ROWS, one_a_line: bool = False) -> tuple[Input | Group, ...] | None:
    """An input (or a group) for each property of `schema`, with `rows` rows for each list of
    objects the schema does not bound lower (`one_a_line`: lists of words written one a line);
    None when an input cannot say one of them."""
    required = set(schema.get("required", ()))
    properties = schema.get("properties", {})
    parts = [
        _part(schema, name, node, name in required, rows, one_a_line)
        for name, node in properties.items()
        if not node.get(NO_FORM)  # the rules give it no choice: its default stands
    ]
    return None if None in parts else tuple(part for part in parts if part is not None)


def form_for(game: AnyGame, kind: str, schema: Mapping[str, Any], help_lines: Sequence[str], rows: int = ROWS) -> Form:
    """The form of `kind` (a submission or an immediate action of `game`) from its JSON schema,
    with `rows` rows for each list of objects the schema does not bound lower; one box in the
    game's grammar where an input cannot say a field."""
    description = str(schema.get("description") or "").strip()
    parts = parts_of(schema, rows)
    if parts is None:
        parts = (Input(LINES, f"Your {kind}, one instruction a line (as in a mail)", "lines", True),)
    return Form(kind, description, parts, tuple(help_lines))


def _put(target: dict[str, Any], path: list[str], value: Any) -> None:
    head, *rest = path
    if not rest:
        target[head] = value
        return
    _put(target.setdefault(head, {}), rest, value)


def _as_lists(value: Any) -> Any:
    """Rows kept as {"0": {...}, "1": {...}} made lists again, in row order, empty rows left out."""
    if isinstance(value, dict):
        value = {key: _as_lists(item) for key, item in value.items()}
        if value and all(key.isdigit() for key in value):
            return [value[key] for key in sorted(value, key=int) if value[key] not in ({}, None)]
    return value


def _number(text: str) -> int | str:
    """A number as a number; anything else as written, for the service to refuse in its words."""
    try:
        return int(text.strip())
    except ValueError:
        return text


def submission_of(
    game: AnyGame, form: Form, fields: Mapping[str, str], accepts: Sequence[str], players: Mapping[str, str]
) -> Any:
    """The JSON `fields` (as the browser posted them) say for `form`'s kind; a blank field says
    nothing (the model's default, or the service's refusal of what is missing)."""
    if form.inputs and form.inputs[0].widget == "lines":
        lines = fields.get(form.prefix + LINES, "").splitlines()
        reading = game.text.read_text(lines, [*accepts, form.kind], players)
        if reading.reasons:
            raise Malformed(f"the {form.kind} could not be read", reading.reasons)
        moves = [move.submission for move in reading.moves if move.kind == form.kind]
        if len(moves) != 1:
            text = f"write one {form.kind}; the box holds {len(moves)}"
            raise Malformed(text, [Reason("lines", text)])
        return moves[0]
    return filled_in(form, fields)


def filled_in(form: Form, fields: Mapping[str, str]) -> dict[str, Any]:
    """What `form`'s inputs (not the grammar's box) say, as JSON: a blank input says nothing; a
    number not one is kept as written, for the service to refuse naming its field."""
    submission: dict[str, Any] = {}
    for one in form.inputs:
        raw = fields.get(form.prefix + one.name)
        if one.widget == "checkbox":
            _put(submission, one.name.split("."), raw is not None)
            continue
        if raw is None or not raw.strip():
            continue
        value: Any = raw.strip()
        if one.widget == "number" or (one.widget in ("text", "select") and one.integers):  # a text: "7" or "square"
            value = _number(raw)
        elif one.one_a_line:
            value = [line.strip() for line in raw.splitlines() if line.strip()]
        elif one.widget == "list":
            value = [_number(item) if one.integers else item for item in re.split(r"[\s,]+", raw.strip())]
        _put(submission, one.name.split("."), value)
    return _as_lists(submission)


_ROW = re.compile(r"^" + re.escape(FIELD_PREFIX) + r"[^.]+\.(\d{1,3})\.")


def rows_for(fields: Mapping[str, str] = {}, submission: Mapping[str, Any] | None = None) -> int:
    """The rows a form needs: `ROWS`, or one more than the longest list of what stands, or as many
    as the posted fields fill (so no row sent is left unread)."""
    posted = [int(found.group(1)) + 1 for key in fields if (found := _ROW.match(key))]
    standing = [len(value) + 1 for value in (submission or {}).values() if isinstance(value, list)]
    return max([ROWS, *posted, *standing])


def fields_of(game: AnyGame, form: Form, submission: Mapping[str, Any]) -> dict[str, str]:
    """The form filled in with a submission sent before (`submission_of` reads it back the same),
    so a resend starts from what stands."""
    if form.inputs and form.inputs[0].widget == "lines":
        model = game.submissions[form.kind].model_validate(submission)  # as stored: accepted before
        return {form.prefix + LINES: "\n".join(game.text.write_text(form.kind, model))}
    filled: dict[str, str] = {}
    for one in form.inputs:
        value: Any = submission
        for step in one.name.split("."):
            if isinstance(value, list) and step.isdigit() and int(step) < len(value):
                value = value[int(step)]
            elif isinstance(value, Mapping) and step in value:
                value = value[step]
            else:
                value = None
                break
        if value is None or (one.widget == "checkbox" and value is not True):
            continue
        filled[form.prefix + one.name] = " ".join(map(str, value)) if isinstance(value, list) else str(value)
    return filled
