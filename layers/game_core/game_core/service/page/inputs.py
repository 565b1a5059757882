"""A form's inputs, from its JSON schema's `Form`: each labelled, with its hint and the service's
reason naming it; the player's page's forms and the host's page's alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from game_core.errors import Reason, in_words
from game_core.service.page.forms import LONG_TEXT, Form, Group, Input
from game_core.service.page.html import attrs, esc


def inputs(form_id: str, form: Form, given: Given, choices: Choices) -> str:
    """`form`'s inputs, each labelled, with its hint and the service's reason naming it; a group's
    in a fieldset, its rows side by side: the player's page's forms and the host's alike."""
    parts = []
    for part in form.parts:
        if isinstance(part, Group):
            shown = part.inputs[: len(choices.named)] if part.ranking else part.inputs
            rows = [shown[i : i + part.columns] for i in range(0, len(shown), part.columns)]
            cells = "".join(
                '<div class="row">\n' + "".join(_input(form_id, form, one, given, choices) for one in row) + "</div>\n"
                for row in rows
            )
            parts.append(f"<fieldset>\n<legend>{esc(part.legend)}</legend>\n{cells}</fieldset>\n")
        else:
            parts.append(_input(form_id, form, part, given, choices))
    return "".join(parts)


@dataclass(frozen=True)
class Given:
    """What a refused form held, and the service's reasons: each shown again at its field."""

    fields: Mapping[str, str]
    reasons: tuple[Reason, ...]
    field_named: bool = True
    """Whether a reason beside its field still names the field ("multipliers, number 6: ...");
    the host's new-match form, whose labels say it already, leaves the name off."""

    def beside(self, one: Input) -> str:
        """The reasons naming this field, as shown beside it."""
        said = [in_words(reason.text) for reason in self.at(one)]
        return " ".join(text if self.field_named else text.partition(": ")[2] for text in said)

    def at(self, one: Input) -> list[Reason]:
        """The reasons naming this field (the service's reasons name a field by its path)."""
        return [reason for reason in self.reasons if reason.text.startswith(f"{one.name}:")]


@dataclass(frozen=True)
class Choices:
    """The participants a field naming one offers, in seating order: each by name, the id sent."""

    named: Mapping[str, str]
    me: str

    def options(self, one: Input, value: str | None) -> str:
        """A blank choice first (a row left empty; where one is required, none chosen yet: the
        browser asks for one), then each participant, the viewer marked; a value that names
        nobody (posted by hand, refused) kept as written, to correct."""
        blank = "(choose one)" if one.required else "(none)"
        said = f'<option value="">{blank}</option>'
        for participant, name in self.named.items():
            shown = f"{name} (you)" if participant == self.me else name
            said += f"<option{attrs(value=participant, selected=value == participant)}>{esc(shown)}</option>"
        if value and value not in self.named:
            said += f"<option{attrs(value=value, selected=True)}>{esc(value)}</option>"
        return said


def _input(form_id: str, form: Form, one: Input, given: Given, choices: Choices) -> str:
    input_id = f"{form_id}-{one.name.replace('.', '-')}"
    name = form.prefix + one.name
    value = given.fields.get(name)
    hint = f'<span class="hint" id="{esc(input_id)}-hint">{esc(one.hint)}</span>\n' if one.hint else ""
    wrong = given.beside(one)
    hint += f'<span class="error" id="{esc(input_id)}-error">{esc(wrong)}</span>\n' if wrong else ""
    described = " ".join(f"{input_id}-{what}" for what, shown in (("hint", one.hint), ("error", wrong)) if shown)
    label = f'<label for="{esc(input_id)}">{esc(one.label)}</label>\n'
    common = attrs(
        id=input_id,
        name=name,
        required=one.required,
        aria_describedby=described or None,
        aria_invalid="true" if wrong else None,
    )
    if one.widget == "select":
        options = "" if one.blank is None else f'<option value="">{esc(one.blank)}</option>'
        offered = [*one.options, *([value] if value and value not in one.options else [])]  # posted by hand: kept
        options += "".join(f"<option{attrs(value=o, selected=value == o)}>{esc(o)}</option>" for o in offered)
        control = f"<select{common}>{options}</select>\n"
    elif one.widget == "participant":
        control = f"<select{common}>{choices.options(one, value)}</select>\n"
    elif one.widget == "checkbox":
        control = f'<input type="checkbox" value="true"{common}{attrs(checked=value is not None)}>\n'
        return f'<div class="field check">{control}{label}{hint}</div>\n'
    elif one.widget == "lines":
        control = f'<textarea rows="6"{common}>{esc(value or "")}</textarea>\n'
    elif one.one_a_line or (one.max_length or 0) > LONG_TEXT:
        control = f'<textarea rows="3"{common}{attrs(maxlength=one.max_length)}>{esc(value or "")}</textarea>\n'
    else:
        kind = "number" if one.widget == "number" else "text"
        limits = attrs(
            min=one.minimum,
            max=one.maximum,
            pattern=one.pattern,
            maxlength=one.max_length,
            inputmode="numeric" if one.widget == "list" and one.integers else None,
            value=value,
        )
        control = f'<input type="{kind}"{common}{limits}>\n'
    return f'<div class="field">{label}{control}{hint}</div>\n'
