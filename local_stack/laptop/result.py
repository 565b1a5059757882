"""A finished match's result on the host's page (issue 30 item 3): each place with its player by
name, score, Tokens of Life (ToL), whether an Elimination Candidate (EC), and the garnets earned,
in a table; a tie left for the host to decide said in words. The same facts a mail gives in text
(`text_layout.result_text`), from the public result alone (`Result.to_json`). And what a host
command answered, in words (`answer_list`): players by name, never raw JSON."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from html import escape
from typing import Any

from game_core.games.text_layout import name, names_and, signed
from game_core.match.clock import day_text

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


ANSWERED = {
    "status": "Status",
    "player": "Player",
    "secret": "New secret (give it to the player privately; it is not shown again)",
    "links": "The player's page",
    "execution": "State machine run started",
    "warning": "Warning",
    "changed": "Changed",
    "notice_sent": "Everyone told",
}
"""The answer's fields shown, in words; the match (in the page's title) and the rest left out."""


def answer_list(said: Mapping[str, Any], names: Mapping[str, str], zone: str | None = None) -> str:
    """A host command's answer (less `ok` and the result, shown as a table) as a list of what it
    says: the phase now open and its deadline, a player by name, yes and no for flags."""
    rows: list[tuple[str, str, str]] = []
    opened = said.get("open")
    if opened:
        rows.append(("phase", "Phase now open", f"{opened['phase']} (phase {opened['number']})"))
        deadline = day_text(datetime.fromisoformat(opened["deadline"].replace("Z", "+00:00")), zone)
        rows.append(("deadline", "Its deadline", deadline + (" (paused)" if opened.get("paused") else "")))
    for key, label in ANSWERED.items():
        if key not in said:
            continue
        value = said[key]
        if key == "player":
            value = name(names, value)
        elif key == "links":
            value = " ".join(str(link) for link in (value.values() if isinstance(value, Mapping) else value))
        elif isinstance(value, bool):
            value = "yes" if value else "no: it was done already" if key == "changed" else "no"
        elif not isinstance(value, str):
            value = json.dumps(value)
        rows.append((key, label, str(value)))
    listed = "".join(
        f'<dt>{escape(label)}</dt><dd id="answer-{escape(key)}">{escape(value)}</dd>' for key, label, value in rows
    )
    return f'<dl id="answer">{listed}</dl>' if listed else ""
