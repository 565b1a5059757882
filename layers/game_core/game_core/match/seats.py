"""Who played each seat the host gave to someone else (`service.host.replace`), for the result: the
seat's current player is the one the standings name, and the text beside them says who played
it before, and from which phase each successor took it."""

from __future__ import annotations

from game_core.games.text_layout import prose
from game_core.match.model import Match


def seat_lines(match: Match) -> list[str]:
    """ "Seat bo was played by Bo, then from Round 3 by Dana." for each seat replaced; none else."""
    lines: list[str] = []
    for seat in match.players:
        if not seat.formerly:
            continue
        successors = [former.name for former in seat.formerly[1:]] + [seat.name]
        handovers = "".join(
            f", then from {former.phase} by {successor}"
            for former, successor in zip(seat.formerly, successors, strict=True)
        )
        lines += prose(f"Seat {seat.id} was played by {seat.formerly[0].name}{handovers}.")
    return lines
