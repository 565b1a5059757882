"""The host names the guests of an episode whose game hosts them (Clubs): `season/guests.py` judges
the names; here each new guest gets their way in.

The season's step creates and starts each match itself and tells nobody a secret (its players hold
their season secret already). So a guest's secret is drawn here, when the host names them, and
kept (its hash only) with the season's: the step seats the guest with it and draws none. The host is
told each new guest's secret and page link in this act's reply, as a match's creation tells the
host every participant's (the host passes them on, or `mail-links` mails them once the match
runs). Named again, a guest the season already holds a secret for (a cast member, or a guest named
before) gets no second one: each secret is told exactly once."""

from __future__ import annotations

from typing import Any

from game_core.match.model import secret_hash
from game_core.season import guests
from game_core.season.settings import SeasonSettings
from game_core.season.state import SeasonState, Stepped, copy
from game_core.service.ports import Ports
from game_core.service.season import waits as season_waits
from game_core.service.season.lifecycle import apply
from game_core.service.season.machine import season_match_id, store
from game_core.service.telling import links


def name_guests(ports: Ports, season_id: str, given: guests.GuestsGiven) -> dict[str, Any]:
    """The host's guests for the coming episode (`given`: each player's, as `season/guests.py`
    takes them), stored once; each guest new to the season is told their secret and link once."""
    before = store(ports).season(season_id).state
    number = len(before.episodes) + 1
    drawn = {guest: ports.ids.secret() for guest in _named(given) if guest not in before.secret_hashes}
    after = apply(store(ports), ports.clock, season_id, _naming(number, given, drawn))
    season_waits.wake_season(ports, season_id)
    told = {
        guest: secret
        for guest, secret in drawn.items()
        if guest not in before.secret_hashes and after.secret_hashes.get(guest) == secret_hash(secret)
    }
    main = season_match_id(season_id, f"e{number}-main")
    named = {player: [g["id"] for g in entries] for player, entries in after.guests.get(str(number), {}).items()}
    return {
        "season_id": season_id,
        "episode": number,
        "match_id": main,
        "guests": named,
        "secrets": told,
        "links": links.paths(main, told),
    }


def _naming(number: int, given: guests.GuestsGiven, drawn: dict[str, str]) -> Any:
    """The step: the guests named, each new one holding the hash of the secret drawn for them; a
    guest of this episode named before and no longer is not kept (no way in for them)."""

    def step(settings: SeasonSettings, state: SeasonState) -> Stepped:
        stepped = guests.name_guests(settings, state, number, given)
        if not stepped.changed:
            return stepped
        after = copy(stepped.state)
        cast = {member.id for member in settings.cast}
        now = {g["id"] for entries in after.guests[str(number)].values() for g in entries}
        for entries in state.guests.get(str(number), {}).values():
            for old in (g["id"] for g in entries):
                if old not in now and old not in cast:
                    after.secret_hashes.pop(old, None)
        for guest in now:
            if guest not in after.secret_hashes:
                after.secret_hashes[guest] = secret_hash(drawn[guest])
        return Stepped(after, stepped.events)

    return step


def _named(given: guests.GuestsGiven) -> list[str]:
    """Each guest's id as the host gives it (a cast member's id, or an entry's `id`)."""
    entries = [g for gs in given.values() if isinstance(gs, list) for g in gs]
    ids = [g if isinstance(g, str) else g.get("id") if isinstance(g, dict) else None for g in entries]
    return [guest for guest in dict.fromkeys(ids) if isinstance(guest, str)]
