"""Guests of an episode whose game hosts them (RULINGS.md, "Seasons": "Clubs' guests are named by
the host when its episode starts (eliminated players may be guests); the episode waits for
them."): the host names each player's guests before the episode begins; a guest is anyone but a
player still in the season, an eliminated cast member given by their id alone (their contacts
come from the cast)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from game_core.errors import Reason, validation_reasons
from game_core.games import registry
from game_core.match.engine import guests_per_player
from game_core.match.model import GuestEntry
from game_core.season.episode import episode_players
from game_core.season.errors import NotEligible, NotNow
from game_core.season.settings import SeasonSettings, count_refused
from game_core.season.state import SeasonEvent, SeasonState, Stepped, copy, unchanged

GuestsGiven = dict[str, list[Any]]
"""Each player's guests as the host gives them: a cast member's id, or a guest's entry (id, name,
email, zone) as a match's settings file takes it."""


def guests_wanted(settings: SeasonSettings, number: int) -> int:
    """How many guests each player brings to episode `number`'s Main Match (0: none)."""
    return guests_per_player(registry.load(settings.episodes[number - 1].main.game))


def name_guests(settings: SeasonSettings, state: SeasonState, number: int, given: GuestsGiven) -> Stepped:
    """The host names each player's guests for episode `number`, before it begins (again before
    then: the new names replace the old; the same again: nothing changes)."""
    if len(state.episodes) >= number or not 1 <= number <= len(settings.episodes):
        at = len(state.episodes)
        raise NotNow(f"episode {number}'s guests are named before it begins; the season is at episode {at}")
    wanted = guests_wanted(settings, number)
    if not wanted:
        raise NotNow(f"episode {number}'s game ({settings.episodes[number - 1].main.label()}) has no guests")
    main, players = settings.episodes[number - 1].main, len(episode_players(state))
    unplayable = count_refused(main, players, players, f"episode {number}")
    if unplayable:
        raise NotNow(f"{unplayable}: it cannot begin, so it takes no guests")
    guests = _entries(settings, state, given, wanted)
    if state.guests.get(str(number)) == guests:
        return unchanged(state)
    after = copy(state)
    after.guests[str(number)] = guests
    ids = {player: [guest["id"] for guest in entries] for player, entries in guests.items()}
    return Stepped(after, (SeasonEvent("guests_named", {"episode": number, "guests": ids}),))


def _entry(cast: dict[str, Any], guest: Any) -> Any:
    """A guest given by id: a cast member's contacts, else the id alone; an entry as it is."""
    if not isinstance(guest, str):
        return guest
    if guest not in cast:
        return {"id": guest}
    return cast[guest].model_dump(include={"id", "name", "email", "zone"}, exclude_none=True)


def _entries(
    settings: SeasonSettings, state: SeasonState, given: GuestsGiven, wanted: int
) -> dict[str, list[dict[str, Any]]]:
    players, cast = episode_players(state), {member.id: member for member in settings.cast}
    reasons = [Reason("no_guests", f"{p} brings no guests: name {wanted}") for p in players if p not in given]
    reasons += [Reason("not_a_player", f"{p} plays no part in the episode") for p in given if p not in players]
    entries: dict[str, list[dict[str, Any]]] = {}
    for player in (p for p in players if p in given):
        if len(given[player]) != wanted:
            reasons.append(
                Reason("guest_count", f"{player} brings {len(given[player])} guests; the game takes {wanted}")
            )
        entries[player] = []
        for guest in given[player]:
            try:
                entries[player].append(GuestEntry.model_validate(_entry(cast, guest)).model_dump(exclude_defaults=True))
            except ValidationError as error:
                reasons += validation_reasons(error, f"{player}'s guest", prefix=f"{player}'s guest ")
    chosen = [guest["id"] for guests in entries.values() for guest in guests]
    left = set(state.left)
    reasons += [Reason("still_playing", f"{g} is still in the season: no guest") for g in chosen if g in left]
    reasons += [
        Reason("guest_twice", f"{g} is named twice") for g in sorted({g for g in chosen if chosen.count(g) > 1})
    ]
    if reasons:
        raise NotEligible("these guests cannot be named", reasons)
    return entries
