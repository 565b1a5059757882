"""A Pushing Crates match of Ada Lovelace (in Paris), Bo Baggins and Cy Twombly on the fakes,
created at 12:00 UTC on Tuesday 1 December 2026 with an hour a phase, each signed in to their
page: for the page's messages, absences and graces."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from fakes import Fakes  # noqa: E402

from game_core.match.model import MatchRequest  # noqa: E402
from game_core.service.matches.lifecycle import create_match  # noqa: E402
from game_core.service.page import messages, play, render  # noqa: E402
from game_core.service.ports import Ports  # noqa: E402

PLAYERS = [
    {"id": "ada", "name": "Ada Lovelace", "zone": "Europe/Paris"},
    {"id": "bo", "name": "Bo Baggins"},
    {"id": "cy", "name": "Cy Twombly"},
]


@dataclass
class Talk:
    fakes: Fakes
    match_id: str
    sessions: dict[str, play.sessions.Session]
    secrets: dict[str, str]

    @classmethod
    def open(cls, **settings: Any) -> Talk:
        fakes = Fakes()
        written = {"game": "crates", "players": PLAYERS, "phase_seconds": 3600, "seed": 7} | settings
        created = create_match(fakes.ports, MatchRequest.model_validate(written))
        match_id = created["match_id"]
        sessions = {who: play.sign_in(fakes.ports, match_id, secret) for who, secret in created["secrets"].items()}
        return cls(fakes, match_id, sessions, created["secrets"])

    @property
    def ports(self) -> Ports:
        return self.fakes.ports

    def form(self, who: str, **fields: str) -> dict[str, str]:
        """A form of `who`'s page as the browser posts it: their token, a new delivery key, the fields."""
        return {"csrf": self.sessions[who].csrf, "delivery": play.delivery_key()} | fields

    def page(self, who: str, notice: str = "") -> str:
        return render.page(play.show(self.ports, self.match_id, self.sessions[who].cookie), notice)

    def messages_page(self, who: str, message_id: str | None = None) -> str:
        return messages.messages_page(
            play.show_messages(self.ports, self.match_id, self.sessions[who].cookie, message_id)
        )

    def press(self, who: str, fields: dict[str, str]) -> tuple[play.Seen, str | None]:
        return play.send_press(self.ports, self.match_id, self.sessions[who].cookie, fields)

    def absence(self, who: str, fields: dict[str, str]) -> tuple[play.Seen, str]:
        return play.absence(self.ports, self.match_id, self.sessions[who].cookie, fields)

    def logged(self, kind: str) -> list[dict[str, Any]]:
        return [event.data for event in self.fakes.store.events(self.match_id) if event.type == kind]
