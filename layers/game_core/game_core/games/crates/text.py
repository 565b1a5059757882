"""Pushing Crates in plain text (play by e-mail): the lines of each submission and the text of a view.

MULTIPLIERS 2 1 1 0 -1 -1        (the six numbers alone also do, where multipliers are accepted)
ROUND 3                          (optional: names the round)
PUSH ada RIGHT 2                 (a crate is its player's id, in any case; L and R do)
GROUND ICE                       (left out: stone)
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import groupby
from typing import Any, TypeVar, get_args

from game_core.games.capabilities import Board
from game_core.games.crates.models import SUBMISSIONS, Direction, Ground, MultipliersSubmission, Push, RoundSubmission
from game_core.games.plain_text import MAX_REPEAT, Header, LineForm, LineGrammar, Words
from game_core.games.protocol import Model
from game_core.games.text_layout import listing, name, name_list, numbers, table

MULTIPLIERS, ROUND = "multipliers", "round"
DIRECTIONS: dict[str, Direction] = {"LEFT": "left", "L": "left", "RIGHT": "right", "R": "right"}
PushT = TypeVar("PushT", Push, dict[str, str])
GROUNDS: dict[str, Ground] = {ground.upper(): ground for ground in get_args(Ground)}


def _multipliers(words: Words) -> dict[str, Any]:
    values = [words.number("multiplier")]
    while words.more():
        values.append(words.number("multiplier"))
    return {"multipliers": values}


def _push(words: Words) -> dict[str, Any]:
    crate = words.player("crate")
    direction = words.choice("direction", DIRECTIONS)
    return {"pushes": [{"crate": crate, "direction": direction}] * words.times()}


def _ground(words: Words) -> dict[str, Any]:
    return {"ground": words.choice("ground", GROUNDS)}


class CratesText(LineGrammar):
    models = SUBMISSIONS
    forms = (
        LineForm(
            ("MULTIPLIERS",),
            MULTIPLIERS,
            _multipliers,
            "MULTIPLIERS <six numbers>",
            "rounds 1-6, in order",
            short=True,
        ),
        LineForm(("PUSH",), ROUND, _push, "PUSH <player> LEFT|RIGHT [times]", "one line per crate", many=True),
        LineForm(("GROUND",), ROUND, _ground, "GROUND RUBBER|STONE|ICE", "left out: stone"),
    )
    headers = (
        Header(
            "ROUND", ROUND, lambda number, accepts: f"Round {number}", "ROUND [number]", "optional: names the round"
        ),
    )
    examples = {
        MULTIPLIERS: MultipliersSubmission(multipliers=[2, 1, 1, 0, -1, -1]),
        ROUND: RoundSubmission(
            pushes=[Push(crate="ada", direction="right"), Push(crate="ada", direction="right")], ground="ice"
        ),
    }

    def write_text(self, kind: str, submission: Model) -> list[str]:
        if isinstance(submission, MultipliersSubmission):
            return [f"MULTIPLIERS {numbers(submission.multipliers)}"]
        assert isinstance(submission, RoundSubmission)
        lines = [_push_line(push.crate, push.direction, times) for push, times in _runs(submission.pushes)]
        return [*lines, f"GROUND {submission.ground.upper()}"]

    def draw_board(self, view: Mapping[str, Any], names: Mapping[str, str], viewer: str | None) -> Board:
        from game_core.games.crates import board  # only a page draws: not at import

        return board.draw(view, names, viewer)

    def render_view(self, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
        public = view["public"]
        lines = [_heading(public), *listing(f"Players: {name_list(names, public['players'])}")]
        if public["reveals"]:
            lines += ["", "Crates' locations mod 5 after each round:"]
            rounds = [reveal["round"] for reveal in public["reveals"]]
            rows = [
                [name(names, player), *(str(reveal["mod5"][player]) for reveal in public["reveals"])]
                for player in public["players"]
            ]
            lines += table(["Crate", *(f"R{number}" for number in rounds)], rows)
        if public.get("final"):
            lines += ["", *_final(public["final"], names)]
        if view.get("private"):
            lines += ["", *_private(view["private"], names, None if public["over"] else public["round"])]
        return "\n".join(lines)


def _runs(pushes: list[PushT]) -> list[tuple[PushT, int]]:
    """Equal pushes in a row, counted: they share a line (of at most `MAX_REPEAT`), and the order
    of the pushes is kept."""
    runs = []
    for push, run in groupby(pushes):
        times = len(list(run))
        runs += [(push, MAX_REPEAT)] * (times // MAX_REPEAT)
        if times % MAX_REPEAT:
            runs.append((push, times % MAX_REPEAT))
    return runs


def _pushes_text(pushes: list[dict[str, str]], names: Mapping[str, str]) -> str:
    parts = []
    for push, times in _runs(pushes):
        said = f"{name(names, push['crate'])} {push['direction']}"
        parts.append(said if times == 1 else f"{said} x{times}")
    return ", ".join(parts)


def _push_line(crate: str, direction: str, times: int) -> str:
    line = f"PUSH {crate} {direction.upper()}"
    return line if times == 1 else f"{line} {times}"


def _heading(public: Mapping[str, Any]) -> str:
    if public["over"]:
        return "Pushing Crates: the match is over."
    if public["round"] == 0:
        return "Pushing Crates: the pregame (assign your multipliers)."
    return f"Pushing Crates: round {public['round']} of {public['round_count']}."


def _final(final: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    rows = [[str(s["place"]), name(names, s["player"]), s["score"]] for s in final["standings"]]
    lines = ["Final standings:", *table(["Place", "Player", "Points"], rows)]
    lines += [f"Tokens of Life: {name_list(names, final['tol'])}"]
    lines += [f"Elimination candidates: {name_list(names, final['ec'])}"]
    if final["lot_decided"]:
        lines.append(f"A tie was decided by the lot: {name_list(names, final['lot'])}")
    return lines


def _multiplier_lines(multipliers: Mapping[str, Any], open_round: int | None) -> list[str]:
    """The player's multipliers, each line telling what it is: what Pregame took (counted only
    when it closes: until then STATUS shows what was sent), the late change Round 1 takes, and
    the order that stands. `open_round`: the round being played (0: the pregame; None: over)."""
    pregame, late = multipliers["pregame"], multipliers["round_1"]
    if pregame:
        lines = [f"  pregame: {numbers(pregame)}"]
    elif open_round == 0:
        lines = ["  pregame: counted when Pregame closes (STATUS shows what you sent)"]
    else:
        lines = ["  pregame: none sent"]
    if late:
        lines += [f"  round 1: {numbers(late)} (your late change)"]
    elif open_round in (0, 1):
        lines += ["  round 1: a late change is taken until Round 1 closes; none yet"]
    else:
        lines += ["  round 1: no late change sent"]
    return ["Your multipliers (rounds 1-6):", *lines]


def _private(private: Mapping[str, Any], names: Mapping[str, str], open_round: int | None) -> list[str]:
    multipliers = private["multipliers"]
    lines = _multiplier_lines(multipliers, open_round)
    if multipliers["standing"]:
        lines.append(f"  standing: {numbers(multipliers['standing'])}")
    if private["rounds"]:
        rows = [
            [
                str(entry["round"]),
                _pushes_text(entry["pushes"], names) or ("none" if entry["submitted"] else "none (nothing sent)"),
                entry["ground"],
                str(entry["total"]),
            ]
            for entry in private["rounds"]
        ]
        lines += ["Your rounds:", *table(["Round", "Pushes", "Ground", "Total"], rows)]
    # In the rules' order, whatever order the view's keys arrive in (SNS delivers them sorted)
    left = ", ".join(
        f"{ground} {private['grounds_left'][ground]}"
        for ground in GROUNDS.values()
        if ground in private["grounds_left"]
    )
    lines += [f"Grounds left: {left} (stone: any number)", f"Your total: {private['total']}"]
    return lines
