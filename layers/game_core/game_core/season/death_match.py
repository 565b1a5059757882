"""The Death Matches of an episode (several at once), their losers' elimination, the next
episode or the Finals, and the champion (RULINGS.md, "Seasons": "The Death Match", "Finals")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from game_core.season.errors import AlreadyDone, NotNow, WrongMatch
from game_core.season.guests import guests_wanted
from game_core.season.outcome import firsts, loser_of
from game_core.season.settings import SeasonSettings, count_refused
from game_core.season.state import DeathMatch, Episode, SeasonEvent, SeasonState, Stepped, copy, unchanged


def start_death_match(state: SeasonState, ec: str, match_id: str) -> Stepped:
    """The Death Match of `ec`'s pair is match `match_id`. Sent again: nothing changes."""
    episode = state.current("death_matches", "done")
    dm = next((dm for dm in episode.death_matches if dm.ec == ec), None)
    if dm is None:
        raise NotNow(f"{ec} plays no Death Match in episode {episode.number}")
    if dm.match_id is not None:
        if dm.match_id == match_id:
            return unchanged(state)
        raise WrongMatch(f"{ec}'s Death Match is match {dm.match_id}, not {match_id}")
    after = copy(state)
    started = next(d for d in after.current("death_matches").death_matches if d.ec == ec)
    started.match_id = match_id
    data = {"episode": episode.number, "match_id": match_id, "players": list(dm.players), "protected": dm.protected}
    return Stepped(after, (SeasonEvent("death_match_started", data),))


def _running(state: SeasonState, match_id: str) -> tuple[Episode, DeathMatch]:
    episode = state.current("death_matches", "done")
    dm = episode.death_match(match_id)
    if dm is None:
        raise WrongMatch(f"match {match_id} is no Death Match of episode {episode.number}")
    return episode, dm


def death_match_ended(state: SeasonState, match_id: str, result: dict[str, Any]) -> Stepped:
    """Its loser is eliminated; a tie the result leaves waits for the host (`decide_death_match`).
    The same result again: nothing changes."""
    episode, dm = _running(state, match_id)
    if dm.loser is not None or dm.tied:
        return unchanged(state)
    loser = loser_of(result, dm.players, match_id)
    if loser is None:
        after = copy(state)
        after.current("death_matches").death_match(match_id).tied = True  # type: ignore[union-attr]
        data = {"episode": episode.number, "match_id": match_id, "players": list(dm.players)}
        return Stepped(after, (SeasonEvent("death_match_tied", data),))
    return _eliminate(state, match_id, loser, by_host=False)


def decide_death_match(state: SeasonState, match_id: str, loser: str) -> Stepped:
    """The host names the loser of a Death Match its result left tied. The same again: nothing."""
    _episode, dm = _running(state, match_id)
    if dm.loser is not None:
        if dm.loser == loser and dm.by_host:
            return unchanged(state)
        raise AlreadyDone(f"match {match_id}'s loser is {dm.loser} already")
    if not dm.tied:
        raise NotNow(f"match {match_id} has no tie for the host to decide (it has not ended tied)")
    if loser not in dm.players:
        raise NotNow(f"{loser} does not play match {match_id} ({', '.join(dm.players)} do)")
    return _eliminate(state, match_id, loser, by_host=True)


def _eliminate(state: SeasonState, match_id: str, loser: str, by_host: bool) -> Stepped:
    after = copy(state)
    episode = after.current("death_matches")
    dm = episode.death_match(match_id)
    assert dm is not None
    dm.loser, dm.by_host, dm.tied = loser, by_host, False
    after.player(loser).eliminated_in = episode.number
    winner = dm.opponent if loser == dm.ec else dm.ec
    data = {"episode": episode.number, "match_id": match_id, "loser": loser, "winner": winner, "by_host": by_host}
    events = [
        SeasonEvent("death_match_ended", data),
        SeasonEvent("eliminated", {"episode": episode.number, "player": loser}),
    ]
    if all(d.loser is not None for d in episode.death_matches):
        episode.stage = "done"
        losers = [d.loser for d in episode.death_matches]
        events.append(SeasonEvent("episode_ended", {"episode": episode.number, "eliminated": losers}))
    return Stepped(after, tuple(events))


@dataclass(frozen=True)
class Next:
    """What the season does next once nothing it waits on is left: an episode, the Finals, or nothing."""

    kind: Literal["episode", "guests", "unplayable", "finals", "over", "waiting"]
    """"guests": the next episode's game hosts guests and the host has not named them yet;
    "unplayable": its game (or the Finals') does not take the players left (`why`)."""
    number: int = 0
    """The episode (0: the Finals)."""
    players: list[str] = field(default_factory=list)
    why: str = ""


def next_step(state: SeasonState, settings: SeasonSettings) -> Next:
    """The next episode among the players left and not finalists (first its guests, where its
    game hosts them and the host has not named them: "guests"); the Finals among every player
    left when they are `finals_at` (or fewer), or when the episodes are used up; "unplayable" when
    that match's game does not take them (the settings' projection missed a count: it waits for
    the host); "waiting" while the episode or the Finals wait on something; "over" once a champion
    is named or cancelled."""
    if state.stage in ("over", "cancelled"):
        return Next("over")
    if state.stage == "finals" or (state.episode is not None and state.episode.stage != "done"):
        return Next("waiting")
    left = state.left
    if len(left) <= settings.finals_at or len(state.episodes) == len(settings.episodes):
        why = count_refused(settings.final, len(left), len(left), "the Finals")
        return Next("unplayable", players=left, why=why) if why else Next("finals", players=left)
    number = len(state.episodes) + 1
    players = [p for p in left if state.player(p).finalist_in is None]
    why = count_refused(settings.episodes[number - 1].main, len(players), len(players), f"episode {number}")
    if why:
        return Next("unplayable", number=number, players=players, why=why)
    if guests_wanted(settings, number) and str(number) not in state.guests:
        return Next("guests", number=number, players=players)
    return Next("episode", number=number, players=players)


def start_finals(state: SeasonState, settings: SeasonSettings, match_id: str) -> Stepped:
    """The Finals are match `match_id` among every player left. Sent again: nothing changes."""
    if state.stage == "finals" and state.finals_match_id == match_id:
        return unchanged(state)
    if next_step(state, settings).kind != "finals":
        raise NotNow(f"season {state.season_id} is not ready for its Finals ({state.stage})")
    after = copy(state)
    after.stage, after.finals_match_id, after.finals_players = "finals", match_id, state.left
    return Stepped(after, (SeasonEvent("finals_started", {"match_id": match_id, "players": state.left}),))


def finals_ended(state: SeasonState, match_id: str, result: dict[str, Any]) -> Stepped:
    """The Finals' winner is the champion; several in first place: the host decides."""
    if state.stage == "over" or state.champion_tie:
        return unchanged(state)
    if state.stage != "finals" or state.finals_match_id != match_id:
        raise WrongMatch(f"match {match_id} is not season {state.season_id}'s Finals")
    first = firsts(result, state.finals_players, match_id)
    after = copy(state)
    if len(first) > 1:
        after.champion_tie = first
        return Stepped(after, (SeasonEvent("champion_tie", {"match_id": match_id, "tied": first}),))
    return _crown(after, first[0], by_host=False)


def decide_champion(state: SeasonState, player: str) -> Stepped:
    if state.stage == "over" and state.champion == player:
        return unchanged(state)
    if player not in state.champion_tie:
        raise NotNow(f"no tie for champion waits for the host with {player} in it (tied: {state.champion_tie})")
    return _crown(copy(state), player, by_host=True)


def _crown(state: SeasonState, player: str, by_host: bool) -> Stepped:
    state.stage, state.champion, state.champion_tie = "over", player, []
    return Stepped(state, (SeasonEvent("champion", {"player": player, "by_host": by_host}),))


def cancel(state: SeasonState) -> Stepped:
    """The host cancels the season: nothing more is played. Cancelled already: nothing."""
    if state.stage == "cancelled":
        return unchanged(state)
    if state.stage == "over":
        raise NotNow(f"season {state.season_id} is over: {state.champion} is its champion")
    after = copy(state)
    after.stage = "cancelled"
    return Stepped(after, (SeasonEvent("season_cancelled", {}),))
