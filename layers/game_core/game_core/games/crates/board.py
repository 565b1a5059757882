"""Pushing Crates drawn for one participant's page (`protocol.Board`), from their view alone.

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
from game_core.games.protocol import Board

ROW, CELL, GAP = 30, 40, 16
ARROWS = {"right": "\u2192", "left": "\u2190"}
CHAR = 8
"""A character's width, generously, at the board's 14px: a column is as wide as its longest text."""
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


def _track(
    public: Mapping[str, Any], private: Mapping[str, Any], names: Mapping[str, str], viewer: str | None, top: float
) -> list[str]:
    players, reveals = public["players"], public["reveals"]
    left = max(CHAR * len(_name(names, p)) for p in players) + CHAR * 6 + GAP
    history = left + 5 * CELL + GAP + 2 * CELL
    rounds = private.get("rounds") or []
    last_pushes = rounds[-1]["pushes"] if rounds else []
    parts = [svg.text(0, top + 18, "Crate", font_weight=700)]
    for remainder in range(5):
        parts.append(svg.text(left + remainder * CELL + CELL / 2, top + 18, remainder, text_anchor="middle"))
    parts.append(svg.text(left, top + 36, "location mod 5 (0: a multiple of 5)", fill=svg.QUIET, font_size=11))
    for number in range(1, public["round_count"] + 1):
        parts.append(svg.text(history + (number - 1) * 30 + 15, top + 18, f"R{number}", text_anchor="middle"))
    top += 44
    for index, player in enumerate(players):
        y = top + index * ROW
        who = _name(names, player)
        shade = "#e3eef8" if player == viewer else "#f4f4ef" if index % 2 else svg.PAPER
        parts.append(svg.box(0, y, history + 6 * 30, ROW, fill=shade))
        parts.append(svg.text(0, y + ROW - 10, f"{who} (you)" if player == viewer else who))
        parts.append(svg.line(left, y + ROW / 2, left + 5 * CELL, y + ROW / 2))
        remainder = reveals[-1]["mod5"][player] if reveals else 0
        parts.append(_crate(player, "Your crate" if player == viewer else f"{who}'s crate", remainder, y, left))
        mine = _pushes(last_pushes, player)  # the participant's own, beside the crate they pushed
        if mine:
            x = left + remainder * CELL + CELL + 2
            parts.append(svg.text(x, y + ROW - 10, mine, fill=svg.YOU, font_weight=700))
        for reveal in reveals:
            x = history + (reveal["round"] - 1) * 30 + 15
            parts.append(svg.text(x, y + ROW - 10, reveal["mod5"][player], text_anchor="middle", fill=svg.QUIET))
    return parts


def _own(public: Mapping[str, Any], private: Mapping[str, Any], names: Mapping[str, str], top: float) -> list[str]:
    multipliers, source = _multipliers(public, private)
    done = {entry["round"]: entry for entry in private["rounds"]}
    parts = [svg.text(0, top + 18, f"Your rounds (multipliers {source}; nobody else sees these)", font_weight=700)]
    columns = (("Round", 0), ("Multiplier", 64), ("Ground", 154), ("Total", 224), ("Your pushes", 284))
    parts += [svg.text(x, top + 40, head, fill=svg.QUIET) for head, x in columns]
    top += 48
    for number in range(1, public["round_count"] + 1):
        entry = done.get(number)
        cells = [str(number), f"x{multipliers[number - 1]}"]
        if entry is not None:
            sent = "" if entry["submitted"] else " (nothing sent)"
            cells += [entry["ground"], str(entry["total"]), _pushes_text(entry["pushes"], names) + sent]
        body = [svg.text(x, ROW - 10, cell) for cell, (_, x) in zip(cells, columns, strict=False)]
        title = f"Your round {number}"
        parts.append(svg.marked(f"round-{number}", title, body, (34, 10), transform=f"translate(0 {top})"))
        top += ROW
    left = ", ".join(f"{ground} {count}" for ground, count in private["grounds_left"].items())
    parts.append(svg.text(0, top + 20, f"Grounds left: {left}, stone any number. Your total: {private['total']}."))
    return parts


def _final(final: Mapping[str, Any], names: Mapping[str, str], top: float) -> list[str]:
    parts = [svg.text(0, top + 18, "Final standings", font_weight=700)]
    for index, standing in enumerate(final["standings"]):
        who = _name(names, standing["player"])
        marks = " (Token of Life)" if standing["player"] in final["tol"] else ""
        marks += " (Elimination candidate)" if standing["player"] in final["ec"] else ""
        parts.append(
            svg.text(0, top + 42 + index * 22, f"{standing['place']}. {who}: {standing['score']} points{marks}")
        )
    return parts


def draw(view: Mapping[str, Any], names: Mapping[str, str], viewer: str | None) -> Board:
    public, private = view["public"], view.get("private") or {}
    heading = "the match is over" if public["over"] else _phase(public)
    parts = [svg.text(0, 18, f"Pushing Crates: {heading}", font_weight=700, font_size=16)]
    parts += _track(public, private, names, viewer, 24)
    top = 24 + 44 + len(public["players"]) * ROW + 12
    if private:
        parts += _own(public, private, names, top)
        top += 48 + public["round_count"] * ROW + 32
    if public.get("final"):
        parts += _final(public["final"], names, top)
        top += 42 + len(public["players"]) * 22
    width = max(CHAR * len(_name(names, p)) for p in public["players"]) + CHAR * 6 + GAP + 7 * CELL + GAP + 6 * 30 + 8
    title = f"Pushing Crates, {heading}: every crate on the track"
    picture = svg.picture(max(width, _widest(private, names)), int(top), title, parts, wide=True)
    return Board(picture, _alt(public, private, names, heading))


def _phase(public: Mapping[str, Any]) -> str:
    return "the pregame" if public["round"] == 0 else f"round {public['round']} of {public['round_count']}"


def _widest(private: Mapping[str, Any], names: Mapping[str, str]) -> int:
    """How wide the participant's own rounds are written (their pushes last, at x 284)."""
    pushes = [len(_pushes_text(entry["pushes"], names)) + 16 for entry in private.get("rounds") or []]
    return max([284 + CHAR * most for most in pushes] + [CHAR * 64])


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
