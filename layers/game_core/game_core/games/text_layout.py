"""How every game's plain text is laid out (play by e-mail, and the page's text): aligned tables,
players' names, prose folded to the mail's width, and a match's result in words and a table.
`plain_text` reads what players write.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

_NUMERIC = re.compile(r"^[+-]?[0-9][0-9/.:]*$")


def table(headings: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """Rows in aligned monospace columns (numbers to the right), under `headings` and a rule when
    there are headings."""
    body = [list(row) for row in rows]
    grid = [list(headings), *body] if headings else body
    if not grid:
        return []
    widths = [max(len(row[column]) for row in grid if column < len(row)) for column in range(max(map(len, grid)))]

    def line(row: Sequence[str]) -> str:
        cells = [
            cell.rjust(widths[column]) if _NUMERIC.match(cell) else cell.ljust(widths[column])
            for column, cell in enumerate(row)
        ]
        return "  ".join(cells).rstrip()

    if not headings:
        return [line(row) for row in body]
    return [line(headings), line(["-" * width for width in widths]), *(line(row) for row in body)]


def name(names: Mapping[str, str], player: str | None) -> str:
    """A player's display name (the id when the match gave none); "-" for nobody."""
    if player is None:
        return "-"
    return names.get(player) or player


def whose(names: Mapping[str, str], player: str, viewer: str | None, first: bool = True) -> str:
    """A page speaks to its reader: their own is "Your" ("your" inside a sentence: not `first`),
    another's "<name>'s"."""
    if player == viewer:
        return "Your" if first else "your"
    return f"{name(names, player)}'s"


def name_list(names: Mapping[str, str], players: Iterable[str]) -> str:
    return ", ".join(name(names, player) for player in players) or "none"


def numbers(values: Iterable[int]) -> str:
    return " ".join(str(value) for value in values)


WIDTH = 72
"""Columns a line of a mail keeps to where it can (a table as wide as its cells may be wider)."""
MAIL_WIDTH = 78
"""Columns a paragraph of prose in a mail is folded at (RFC 5322's line length); boards and
tables keep their own widths."""


def prose(text: str, first: str = "", rest: str | None = None) -> list[str]:
    """A paragraph folded at spaces within `MAIL_WIDTH` columns, its first line after `first` and
    the others after `rest` (`first` when not given); a word longer than a line stands whole."""
    indent = first if rest is None else rest
    folded = textwrap.wrap(
        text, MAIL_WIDTH, initial_indent=first, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )
    return folded or [first.rstrip()]


def listing(text: str) -> list[str]:
    """A line listing things (players, cards, items) folded as prose, each fold standing in under
    its first line."""
    return prose(text, rest="    ")


def result_text(result: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """A match's result as a person reads it, from the public result alone (`Result.to_json`):
    who won, the Tokens of Life (ToL), the Elimination Candidates (EC), any tie left for the host,
    and the garnets each earned, in words; then every place in a table."""
    standings = result["standings"]
    tol = result.get("tol_awarded") or {player: 1 for player in result["tol"]}
    first = [s["player"] for s in standings if s["place"] == 1]
    top = next((s["score"] for s in standings if s["place"] == 1), "")
    if len(first) == 1:
        said = [f"The match is over. The winner is {name(names, first[0])}, with {top}."]
    else:
        said = [f"The match is over. {names_and(names, first)} share first place, with {top} each."]
    tokens = [f"{name(names, p)} ({count})" if count != 1 else name(names, p) for p, count in tol.items()]
    said += [f"Tokens of Life (ToL): {', '.join(tokens) or 'nobody'}."]
    said += [f"Elimination Candidates (EC): {name_list(names, result['ec']) if result['ec'] else 'nobody'}."]
    for tie in result.get("tied_lines", []) if result.get("undecided") else []:
        line = "ToL" if tie["line"] == "tol" else "EC"
        places = f"{tie['places']} place{'s' if tie['places'] != 1 else ''}"
        said += [
            f"Tied across the {line} line: {names_and(names, tie['players'])}; the host decides who takes {places}."
        ]
    garnets = result["garnets"]
    said += ["Garnets earned: " + ", ".join(f"{name(names, p)} {signed(garnets[p])}" for p in garnets) + "."]
    rows = [
        [
            str(s["place"]),
            name(names, s["player"]),
            s["score"],
            str(tol.get(s["player"], "")),
            "EC" if s["player"] in result["ec"] else "",
            signed(garnets[s["player"]]) if s["player"] in garnets else "",
        ]
        for s in standings
    ]
    table_lines = table(["Place", "Player", "Score", "ToL", "EC", "Garnets"], rows)
    return [*(line for sentence in said for line in prose(sentence)), "", *table_lines]


def names_and(names: Mapping[str, str], players: Sequence[str]) -> str:
    """Players by name, "Ada, Bo and Cy"."""
    shown = [name(names, player) for player in players]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def signed(garnets: int) -> str:
    """Garnets won or lost, "+3", "-1", "0"."""
    return f"+{garnets}" if garnets > 0 else str(garnets)


def wrapped(text: str) -> list[str]:
    """A long line folded at `WIDTH`, the folds indented."""
    return textwrap.wrap(text, WIDTH, subsequent_indent="    ", break_on_hyphens=False) or [""]
