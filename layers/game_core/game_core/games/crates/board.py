"""Pushing Crates drawn for one participant's page (`capabilities.Board`), from their view alone.

The track: a row per player, seat order, with their crate in the cell of its location mod 5 as
last revealed (every crate starts at 0; only the remainder is ever public), then the remainders
revealed after each round, then the participant's own pushes on that crate in the last resolved
round. Below, their own rounds (multiplier, pushes, ground, running total: known to them alone),
the grounds they have left and, once the match is over, every score and the standings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game_core.games import svg
from game_core.games.capabilities import Board

ROW, CELL, GAP = 30, 40, 16
NAME_LINE = 20
"""A player's row of the track: their name and revealed remainders on one line, the track under it."""
LINE = 20
WIDTH = 388
"""The drawing's width: with its margins 404 units, drawn 372 px wide in a 390-px phone's column,
so its 14-unit text shows at 12.9 px and its smallest (12 units) at 11 px (issue 30 item 4)."""
HISTORY_STEP = 30
HISTORY = WIDTH - 6 * HISTORY_STEP
"""Where the columns of remainders revealed after each round start (six rounds at most)."""
ARROWS = {"right": "\u2192", "left": "\u2190"}
CHAR = svg.CHARACTER_WIDTH * 14
"""A character's width, generously, at the board's 14 units."""
CRATE, CRATE_LINE = "#c98b3c", "#6b4513"


def _name(names: Mapping[str, str], player: str) -> str:
    return names.get(player, player)


def _multipliers(public: Mapping[str, Any], private: Mapping[str, Any]) -> tuple[list[int], str]:
    """The multipliers that count for this player now, and where they come from."""
    said = private.get("multipliers") or {}
    for key, source in (("standing", "fixed"), ("round_1", "sent in round 1"), ("pregame", "sent in the pregame")):
        if said.get(key):
            return list(said[key]), source
    return list(public["multipliers_to_assign"]), "none sent: the listed order stands"


def _pushes(pushes: Sequence[Mapping[str, str]], crate: str) -> str:
    rights = sum(1 for push in pushes if push["crate"] == crate and push["direction"] == "right")
    lefts = sum(1 for push in pushes if push["crate"] == crate and push["direction"] == "left")
    return " ".join(f"{ARROWS[d]}{n if n > 1 else ''}" for d, n in (("left", lefts), ("right", rights)) if n)


def _pushes_text(pushes: Sequence[Mapping[str, str]], names: Mapping[str, str]) -> str:
    crates = list(dict.fromkeys(push["crate"] for push in pushes))
    return ", ".join(f"{_name(names, crate)} {_pushes(pushes, crate)}" for crate in crates) or "none"


def _crate(player: str, title: str, remainder: int, top: float, left: float) -> str:
    """A crate in its cell: marked new when its revealed remainder changed (only)."""
    x = left + remainder * CELL
    body = [
        svg.box(x + 6, 3, CELL - 12, ROW - 6, fill=CRATE, stroke=CRATE_LINE, rx=3),
        svg.text(x + CELL / 2, ROW - 10, remainder, text_anchor="middle", font_weight=700),
    ]
    return svg.marked(f"crate-{player}", title, body, (x - 2, 10), transform=f"translate(0 {top})")


def _lines(x: float, top: float, words: str, width: float, **attributes: Any) -> tuple[list[str], float]:
    """Words wrapped to `width` from `top` down: the texts, and the bottom of the last line."""
    lines = svg.wrap(words, width, float(attributes.get("font_size", 14)))
    texts = [svg.text(x, top + 18 + index * LINE, line, **attributes) for index, line in enumerate(lines)]
    return texts, top + 6 + len(lines) * LINE


def _track(
    public: Mapping[str, Any], private: Mapping[str, Any], names: Mapping[str, str], viewer: str | None, top: float
) -> tuple[list[str], float]:
    """The track: a header, then per player a line with their name and the remainders revealed after
    each round, and under it their crate on the five cells (the participant's pushes beside it)."""
    players, reveals = public["players"], public["reveals"]
    rounds = private.get("rounds") or []
    last_pushes = rounds[-1]["pushes"] if rounds else []
    parts = [svg.text(0, top + 18, "Crate", font_weight=700)]
    parts.append(svg.text(0, top + 36, "location mod 5 (0: a multiple of 5)", fill=svg.QUIET, font_size=12))
    for number in range(1, public["round_count"] + 1):
        x = HISTORY + (number - 1) * HISTORY_STEP + HISTORY_STEP / 2
        parts.append(svg.text(x, top + 18, f"R{number}", text_anchor="middle"))
    top += 44
    for remainder in range(5):
        parts.append(svg.text(remainder * CELL + CELL / 2, top + 14, remainder, text_anchor="middle", fill=svg.QUIET))
    top += 20
    most = int((HISTORY - GAP) / CHAR)
    for index, player in enumerate(players):
        y = top + index * (NAME_LINE + ROW)
        who = _name(names, player)
        shade = "#e3eef8" if player == viewer else "#f4f4ef" if index % 2 else svg.PAPER
        parts.append(svg.box(0, y, WIDTH, NAME_LINE + ROW, fill=shade))
        shown = f"{svg.cut(who, most - 6)} (you)" if player == viewer else svg.cut(who, most)
        parts.append(svg.text(0, y + NAME_LINE - 5, shown))
        for reveal in reveals:
            x = HISTORY + (reveal["round"] - 1) * HISTORY_STEP + HISTORY_STEP / 2
            parts.append(svg.text(x, y + NAME_LINE - 5, reveal["mod5"][player], text_anchor="middle", fill=svg.QUIET))
        parts.append(svg.line(0, y + NAME_LINE + ROW / 2, 5 * CELL, y + NAME_LINE + ROW / 2))
        remainder = reveals[-1]["mod5"][player] if reveals else 0
        title = "Your crate" if player == viewer else f"{who}'s crate"
        parts.append(_crate(player, title, remainder, y + NAME_LINE, 0))
        mine = _pushes(last_pushes, player)  # the participant's own, beside the crate they pushed
        if mine:
            x = remainder * CELL + CELL + 2
            parts.append(svg.text(x, y + NAME_LINE + ROW - 10, mine, fill=svg.YOU, font_weight=700))
    return parts, top + len(players) * (NAME_LINE + ROW) + 12


def _own(
    public: Mapping[str, Any], private: Mapping[str, Any], names: Mapping[str, str], top: float
) -> tuple[list[str], float]:
    """The participant's own rounds: multiplier, ground, total, and under each its pushes."""
    multipliers, source = _multipliers(public, private)
    done = {entry["round"]: entry for entry in private["rounds"]}
    parts, top = _lines(0, top, f"Your rounds (multipliers {source}; nobody else sees these)", WIDTH, font_weight=700)
    columns = (("Round", 0), ("Multiplier", 64), ("Ground", 154), ("Total", 224))
    parts += [svg.text(x, top + 16, head, fill=svg.QUIET) for head, x in columns]
    top += 24
    for number in range(1, public["round_count"] + 1):
        entry = done.get(number)
        cells = [str(number), f"x{multipliers[number - 1]}"]
        if entry is not None:
            cells += [entry["ground"], str(entry["total"])]
        body = [svg.text(x, ROW - 10, cell) for cell, (_, x) in zip(cells, columns, strict=False)]
        height = ROW
        if entry is not None:
            sent = "" if entry["submitted"] else " (nothing sent)"
            pushes = f"pushes: {_pushes_text(entry['pushes'], names)}{sent}"
            written, bottom = _lines(24, ROW - 8, pushes, WIDTH - 24, fill=svg.QUIET)
            body += written
            height = int(bottom) + 4
        title = f"Your round {number}"
        parts.append(svg.marked(f"round-{number}", title, body, (34, 10), transform=f"translate(0 {top})"))
        top += height
    left = ", ".join(f"{ground} {count}" for ground, count in private["grounds_left"].items())
    said, top = _lines(0, top, f"Grounds left: {left}, stone any number. Your total: {private['total']}.", WIDTH)
    return parts + said, top + 12


def _final(final: Mapping[str, Any], names: Mapping[str, str], top: float) -> tuple[list[str], float]:
    parts, top = _lines(0, top, "Final standings", WIDTH, font_weight=700)
    for standing in final["standings"]:
        who = _name(names, standing["player"])
        marks = " (Token of Life)" if standing["player"] in final["tol"] else ""
        marks += " (Elimination candidate)" if standing["player"] in final["ec"] else ""
        written, top = _lines(0, top, f"{standing['place']}. {who}: {standing['score']} points{marks}", WIDTH)
        parts += written
    return parts, top


def draw(view: Mapping[str, Any], names: Mapping[str, str], viewer: str | None) -> Board:
    public, private = view["public"], view.get("private") or {}
    heading = "the match is over" if public["over"] else _phase(public)
    parts = [svg.text(0, 18, f"Pushing Crates: {heading}", font_weight=700, font_size=16)]
    track, top = _track(public, private, names, viewer, 24)
    parts += track
    if private:
        own, top = _own(public, private, names, top)
        parts += own
    if public.get("final"):
        standings, top = _final(public["final"], names, top)
        parts += standings
    title = f"Pushing Crates, {heading}: every crate on the track"
    picture = svg.picture(WIDTH, int(top), title, parts)
    return Board(picture, _alt(public, private, names, heading))


def _phase(public: Mapping[str, Any]) -> str:
    return "the pregame" if public["round"] == 0 else f"round {public['round']} of {public['round_count']}"


def _alt(public: Mapping[str, Any], private: Mapping[str, Any], names: Mapping[str, str], heading: str) -> str:
    reveals = public["reveals"]
    where = "; ".join(f"{_name(names, p)} at {reveals[-1]['mod5'][p] if reveals else 0}" for p in public["players"])
    said = [
        f"Pushing Crates, {heading}. Crates' locations mod 5 "
        f"{'after round ' + str(reveals[-1]['round']) if reveals else 'at the start'}: {where}."
    ]
    if private:
        multipliers, source = _multipliers(public, private)
        said.append(f"Your multipliers for rounds 1 to 6 ({source}): {', '.join(map(str, multipliers))}.")
        for entry in private["rounds"]:
            said.append(
                f"Your round {entry['round']}: pushes {_pushes_text(entry['pushes'], names)}, "
                f"ground {entry['ground']}, total {entry['total']}."
            )
    if public.get("final"):
        standings = ", ".join(
            f"{s['place']}. {_name(names, s['player'])} {s['score']}" for s in public["final"]["standings"]
        )
        said.append(f"Final standings: {standings}.")
    return " ".join(said)
