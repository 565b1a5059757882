"""A finished match's result on the host's page (issue 30 item 3): each place with its player by
name, score, Tokens of Life (ToL), whether an Elimination Candidate (EC), and the garnets earned,
in a table; a tie left for the host to decide said in words. The same facts a mail gives in text
(`text_layout.result_text`), from the public result alone (`Result.to_json`)."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from game_core.games.text_layout import name, names_and, signed

COLUMNS = ("Place", "Player", "Score", "Tokens of Life (ToL)", "Elimination Candidate (EC)", "Garnets earned")


def result_table(result: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """`result` as the host reads it: a table (class `result`), then any undecided tie."""
    tol = result.get("tol_awarded") or {player: 1 for player in result["tol"]}
    garnets = result["garnets"]
    rows = "".join(
        "<tr>"
        + "".join(
            f"<td>{escape(str(cell))}</td>"
            for cell in (
                standing["place"],
                name(names, standing["player"]),
                standing["score"],
                tol.get(standing["player"], "none"),
                "yes" if standing["player"] in result["ec"] else "no",
                signed(garnets[standing["player"]]) if standing["player"] in garnets else "",
            )
        )
        + "</tr>"
        for standing in result["standings"]
    )
    head = "".join(f'<th scope="col">{escape(column)}</th>' for column in COLUMNS)
    table = f'<table class="result"><caption>The result</caption><tr>{head}</tr>{rows}</table>'
    ties = result.get("tied_lines", []) if result.get("undecided") else []
    said = "".join(f"<p>{escape(_tie(tie, names))}</p>" for tie in ties)
    return table + said


def _tie(tie: Mapping[str, Any], names: Mapping[str, str]) -> str:
    line = "Tokens of Life (ToL)" if tie["line"] == "tol" else "Elimination Candidates (EC)"
    places = f"{tie['places']} place{'s' if tie['places'] != 1 else ''}"
    return f"Tied across the {line} line: {names_and(names, tie['players'])}; you decide who takes {places}."
