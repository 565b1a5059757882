"""Driving a Pushing Crates match through the use cases on the in-memory fakes.

The timeline (phase numbers as the service counts openings): 1 Pregame (multipliers), 2 Round 1
(round, multipliers), 3..7 Rounds 2..6. A phase lasts `phase_seconds` (an hour here) from when it
opened; nothing resolves unless a test lets the clock pass the deadline and runs the resolve step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from fakes import Fakes

from game_core.match.model import Match, MatchRequest
from game_core.service.matches import phases
from game_core.service.matches.lifecycle import create_match
from game_core.service.matches.submit import SubmissionRequest, submit
from game_core.service.ports import Ports

HOUR = 3600
PHASES = ("Pregame", "Round 1", "Round 2", "Round 3", "Round 4", "Round 5", "Round 6")
"""PHASES[n - 1] is the name of phase number n."""


def push(crate: str, times: int = 1, direction: str = "right") -> list[dict[str, str]]:
    return [{"crate": crate, "direction": direction} for _ in range(times)]


def request(
    players: tuple[str, ...] = ("ada", "bo"),
    *,
    garnets: dict[str, int] | None = None,
    emails: dict[str, str] | None = None,
    host_email: str | None = None,
    host_zone: str | None = None,
    early_close: bool = False,
    phase_seconds: int = HOUR,
    recheck_seconds: int = HOUR,
    reminders: tuple[int, ...] = (43_200, 3_600),
    seed: int | None = 7,
) -> MatchRequest:
    garnets, emails = garnets or {}, emails or {}
    return MatchRequest.model_validate(
        {
            "game": "crates",
            "players": [
                {"id": p, **({"garnets": garnets[p]} if p in garnets else {}), "email": emails.get(p)} for p in players
            ],
            "host_email": host_email,
            "host_zone": host_zone,
            "phase_seconds": phase_seconds,
            "early_close": early_close,
            "recheck_seconds": recheck_seconds,
            "reminders": reminders,
            "seed": seed,
        }
    )


@dataclass
class Table:
    """One match on the fakes, seen from the players, the host and the state machine."""

    fakes: Fakes
    match_id: str
    created: dict[str, Any]
    replies: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def open(cls, fakes: Fakes | None = None, **options: Any) -> Table:
        fakes = fakes or Fakes()
        created = create_match(fakes.ports, request(**options))
        return cls(fakes, created["match_id"], created)

    @property
    def ports(self) -> Ports:
        return self.fakes.ports

    def match(self) -> Match:
        return self.fakes.store.get(self.match_id)

    @property
    def number(self) -> int:
        phase = self.match().phase
        assert phase is not None
        return phase.number

    def deadline(self) -> datetime:
        phase = self.match().phase
        assert phase is not None
        return phase.deadline

    def submit(self, player: str, phase: str, kind: str, body: Any, number: int | None = None) -> dict[str, Any]:
        reply = submit(
            self.ports, SubmissionRequest(self.match_id, player, phase, kind, body, "test", phase_number=number)
        )
        self.replies.append(reply)
        return reply

    def turn(self, player: str, phase: str, pushes: list[dict[str, str]], ground: str = "stone") -> dict[str, Any]:
        return self.submit(player, phase, "round", {"pushes": pushes, "ground": ground})

    def resolve_at_deadline(self, announce: bool = True) -> dict[str, Any]:
        """Let the open phase's time run out, then run the resolve (and announce) steps."""
        number = self.number
        self.fakes.clock.set(self.deadline())
        progress = phases.resolve(self.ports, self.match_id, number)
        if announce:
            progress = phases.announce(self.ports, self.match_id, number)
        return progress

    def events(self, kind: str | None = None) -> list[Any]:
        return [e for e in self.fakes.store.events(self.match_id) if kind in (None, e.type)]
