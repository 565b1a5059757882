"""A live Puzzler's Clubs match on the local stack, seen from the host's and participants' side:
3 players p1-p3, each with a guest (p1g1, ...), 24-hour phases, immediate actions through the
actions route of the webhook function exactly as API Gateway calls it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game_core.service.matches.views import participant_view
from local_stack.bots.play import seat
from local_stack.bots.runner import send_action

PLAYERS = ("p1", "p2", "p3")
DAY = 86_400


def clubs_request(garnets: dict[str, int] | None = None, seed: int = 12) -> dict[str, Any]:
    garnets = garnets or {}
    players = [seat(p, 1) | ({"garnets": garnets[p]} if p in garnets else {}) for p in PLAYERS]
    return {"game": "clubs", "settings": {}, "players": players, "phase_seconds": DAY, "seed": seed}


@dataclass
class ClubsMatch:
    stack: Any
    match_id: str
    secrets: dict[str, str]

    @classmethod
    def create(cls, stack: Any, garnets: dict[str, int] | None = None) -> ClubsMatch:
        created = stack.host({"command": "create", "match": clubs_request(garnets)})
        assert created["ok"], created
        stack.settle()
        return cls(stack, created["match_id"], created["secrets"])

    def act(self, participant: str, kind: str, action: dict[str, Any]) -> dict[str, Any]:
        """The webhook's reply to one immediate action of `participant`."""
        return send_action(self.stack, self.match_id, participant, self.secrets[participant], kind, action)

    def standing(self, participant: str) -> dict[str, Any]:
        """What `participant` may know now: their view, garnets and the open phase."""
        return participant_view(self.stack.ports(), self.match_id, participant, self.secrets[participant])

    def host(self, command: str, **fields: Any) -> dict[str, Any]:
        reply: dict[str, Any] = self.stack.host({"command": command, "match_id": self.match_id, **fields})
        self.stack.settle()
        return reply

    def resolve_now(self) -> None:
        assert self.host("resolve_now")["ok"]
        self.stack.settle()
