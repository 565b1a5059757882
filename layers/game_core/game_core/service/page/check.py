"""The page's check of a move before it is sent: the form made into the submission and run through
the very checks the submit path runs (`play.move_request`, `submit.validated`: the same parse, the
same rules against this participant's position), in the one read the page makes, storing nothing.
The answer is every reason in words, each tied to the element of the page it is about (an input's
id, or the form's own when it names no field), so the page's script can show it beside that input.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game_core.errors import GameCoreError, Reason, field_path, in_words
from game_core.service.matches.submit import validated
from game_core.service.page import play
from game_core.service.page.forms import FIELD_PREFIX
from game_core.service.ports import Ports

GAME_REASON_FIELDS = {
    "ground_used_up": ("ground",),
    "garnets_not_bid": ("garnets",),
    "garnet_item_unknown": ("garnet_item",),
    "garnets_short": ("garnets", "lowered"),
}
"""The fields a game's own reason (its stable code) may be about, where its text names none by
path: the first of them the form has (Crates' round has no garnets field: its reason stays the form's)."""
ROW_VALUES = {
    "card_repeated": (r"^card (\d+) is used", "cards", "card", "card"),
    "card_unknown": (r"^there is no card (-?\d+) ", "cards", "card", "card"),
    "pack_repeated": (r"^pack (\d+) has", "cards", "pack", "pack"),
    "pack_unknown": (r"^there is no pack (-?\d+) ", "cards", "pack", "pack"),
    "item_unknown": (r"^there is no item (-?\d+) ", "cards", "item", "item"),
    "card_not_in_draft": (r"^(\w+) is the community card", "picks", "card", "card"),
    "token_not_club": (r"^(\w+) is not a club", "picks", "card", "token"),
    "token_missing": (r"^(\w+) is a club", "picks", "card", "token"),
    "token_repeated": (r"^token (\S+) is named", "picks", "token", "token"),
    "token_used": (r"^token (\S+) was used", "picks", "token", "token"),
    "token_unknown": (r"^you have not earned token (\S+) ", "picks", "token", "token"),
}
"""A game's reason that names a row of a list by a value it holds (Palindrome's "card 5 is used 2
times", Clubs' "token 2.3 was used ..."): its pattern, the list, the field holding the value,
and the field of that row the reason is shown at. The last row holding the value is meant (a
repeat is the later one)."""
NUMBERED = re.compile(r"^(push|placement) (\d+) ")
"""A game's reason that names a row of a list by number ("push 2 names crate ...", "placement 1
(tile 7): ..."), counted from 1 in the list sent."""
LISTS = {"push": "pushes", "placement": "placements"}
ROW_REASON_FIELDS = {
    ("push", "crate_unknown"): "crate",  # Pushing Crates
    **{("placement", code): "tile" for code in ("tile_not_held", "tile_repeated", "squares_used_up")},  # Domino
    **{("placement", code): "cells" for code in ("wrong_shape", "outside_grid", "cell_covered", "not_connected")},
}
"""The input of its row each such reason is about, by the row's word and the reason's code."""


@dataclass(frozen=True)
class Finding:
    """One reason the move would be refused, for a person, and where on the page it belongs."""

    code: str
    text: str
    at: str
    """The id of the input it is about (`move-round-pushes-0-crate`), else the form's (`move-round`)."""

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "text": self.text, "at": self.at}


@dataclass(frozen=True)
class Verdict:
    """What the service would say of the move if it were sent now (nothing is stored either way)."""

    form: str
    findings: tuple[Finding, ...]
    garnet_cost: int = 0

    @property
    def legal(self) -> bool:
        return not self.findings

    def to_json(self) -> dict[str, Any]:
        said = "Legal: the service would take this move (nothing is sent until you send it)."
        if self.legal and self.garnet_cost:
            said = f"Legal: it would spend {self.garnet_cost} garnet{'s' if self.garnet_cost > 1 else ''}" + said[5:]
        return {
            "form": self.form,
            "legal": self.legal,
            "said": said if self.legal else "Not legal yet: see the reasons beside the fields.",
            "reasons": [finding.to_json() for finding in self.findings],
        }


def check_move(ports: Ports, match_id: str, cookie: str | None, fields: Mapping[str, str]) -> Verdict:
    """The verdict on the move form `fields` for the session `cookie` holds (one read, no write);
    SignedOut or Unauthorized, raised, when the session or the form's token does not hold."""
    seen = play.read(ports, match_id, cookie)
    play.checked_form(seen, fields)
    form = f"move-{fields.get('kind', '')}"
    try:
        accepted = validated(play.move_request(seen, fields), seen.view, seen.now)
    except GameCoreError as error:
        reasons = error.reasons or [Reason(error.code, str(error))]
        found = tuple(Finding(r.code, _row_words(r.text, fields), _at(form, r, fields)) for r in reasons)
        return Verdict(form, found)
    return Verdict(form, (), accepted.garnet_cost)


def _at(form: str, reason: Reason, fields: Mapping[str, str]) -> str:
    """The page element `reason` is about: the input its field path names, as the page ids it."""
    path = field_path(reason.text) or _game_field(reason, fields)
    numbered = NUMBERED.match(reason.text)
    field = ROW_REASON_FIELDS.get((numbered[1], reason.code)) if numbered else None
    if numbered and field:
        path = f"{LISTS[numbered[1]]}.{int(numbered[2]) - 1}.{field}"
    if not path:
        return form
    if reason.code in ROW_VALUES and not field_path(reason.text):  # already the form's row
        return "-".join([form, *path.split(".")])
    name, *rest = path.split(".")
    if rest and rest[0].isdigit():  # the submission's item, in the form's row it was written in
        rest[0] = str(_rows(fields, name).get(int(rest[0]), int(rest[0])))
    return "-".join([form, name, *rest])


def _game_field(reason: Reason, fields: Mapping[str, str]) -> str | None:
    """The field a game's own reason is about (`GAME_REASON_FIELDS`), or the form's row and field
    its text names by value (`ROW_VALUES`); None when the form has no such field."""
    for name in GAME_REASON_FIELDS.get(reason.code, ()):
        if FIELD_PREFIX + name in fields:
            return name
    if reason.code not in ROW_VALUES:
        return None
    pattern, listed, holding, shown = ROW_VALUES[reason.code]
    found = re.match(pattern, reason.text)
    if found is None:
        return None
    held = re.compile(re.escape(f"{FIELD_PREFIX}{listed}.") + r"(\d{1,3})\." + re.escape(holding) + "$")
    rows = [
        int(hit[1])
        for key, value in fields.items()
        if (hit := held.match(key)) and value.strip().upper() == found[1].upper()
    ]
    return f"{listed}.{max(rows)}.{shown}" if rows else None


def _rows(fields: Mapping[str, str], name: str) -> dict[int, int]:
    """The submission's item index -> the form's row it came from: the form leaves blank rows out
    of the list it sends (`forms.filled_in`), so item 0 may be row 2."""
    found = re.compile(re.escape(f"{FIELD_PREFIX}{name}.") + r"(\d{1,3})(\.|$)")
    rows = sorted({int(hit[1]) for key, value in fields.items() if value.strip() and (hit := found.match(key))})
    return dict(enumerate(rows))


def _row_words(text: str, fields: Mapping[str, str]) -> str:
    """A reason in words ("pushes, number 2, direction: ..."), its number the form's row."""
    path = field_path(text)
    if path is not None and len(parts := path.split(".")) > 1 and parts[1].isdigit():
        parts[1] = str(_rows(fields, parts[0]).get(int(parts[1]), int(parts[1])))
        text = ".".join(parts) + text[len(path) :]
    numbered = NUMBERED.match(text)
    if numbered is not None:  # "push 2" of the list sent is the form's push 3 when row 2 was blank
        item = int(numbered[2]) - 1
        text = f"{numbered[1]} {_rows(fields, LISTS[numbered[1]]).get(item, item) + 1} " + text[numbered.end() :]
    return in_words(text)
