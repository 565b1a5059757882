"""Who plays a Death Match (RULINGS.md, "Seasons"): each EC, better-placed first, names an
opponent among the episode's players who are no EC, not safe, no finalist, not named already
this episode and hold no ToL; with nobody such, the ToL rule lapses for that pick. A silent EC is
named for by the host, then by a lot drawn with the season's seed (recorded). A result that fixes
the pair (Clubs) needs no pick."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from game_core.season.errors import AlreadyDone, NotEligible, NotNow
from game_core.season.outcome import FixedPair
from game_core.season.settings import derived_seed
from game_core.season.state import (
    DeathMatch,
    Episode,
    NamedBy,
    Naming,
    SeasonEvent,
    SeasonState,
    Stepped,
    copy,
    unchanged,
)


@dataclass(frozen=True)
class Eligible:
    players: tuple[str, ...]
    """Who the EC may name, in the episode's order (empty: nobody at all, the EC is unopposed)."""
    lapsed: bool
    """Nobody without a ToL was eligible: the ToL rule lapsed for this pick."""


def eligible(state: SeasonState, episode: Episode, ec: str) -> Eligible:
    named = {n.opponent for n in episode.namings if n.opponent is not None}
    barred = {*episode.ecs, *episode.safe, *state.finalists, *named, ec}
    open_ = tuple(p for p in episode.players if p not in barred)
    unprotected = tuple(p for p in open_ if state.player(p).tol == 0)
    return Eligible(unprotected, False) if unprotected else Eligible(open_, bool(open_))


def begin_naming(state: SeasonState, events: list[SeasonEvent], pair: FixedPair | None) -> Stepped:
    """The episode's picks begin (each EC in turn); a fixed pair goes straight to its Death Match."""
    episode = state.current("main_match", "spending")
    if pair is not None:
        episode.death_matches = [DeathMatch(ec=pair.ec, opponent=pair.opponent, protected=pair.protected)]
        return _to_death_matches(state, events)
    episode.stage = "naming"
    episode.namings = [Naming(ec=ec) for ec in episode.ecs]
    return _settle(state, events)


def naming_turn(state: SeasonState) -> str | None:
    """The EC who names now (None: nobody: the season waits on no pick)."""
    episode = state.episode
    if state.stage != "episode" or episode is None or episode.stage != "naming":
        return None
    return next((n.ec for n in episode.namings if not n.done), None)


def _settle(state: SeasonState, events: list[SeasonEvent]) -> Stepped:
    """ECs with nobody left to name are unopposed; once every EC has named, the Death Matches."""
    episode = state.current("naming")
    for naming in episode.namings:
        if naming.done:
            continue
        if eligible(state, episode, naming.ec).players:
            return Stepped(state, tuple(events))
        naming.unopposed = True
        events.append(SeasonEvent("ec_unopposed", {"episode": episode.number, "ec": naming.ec}))
    episode.death_matches = [
        DeathMatch(ec=n.ec, opponent=n.opponent, protected=n.opponent) for n in episode.namings if n.opponent
    ]
    return _to_death_matches(state, events)


def _to_death_matches(state: SeasonState, events: list[SeasonEvent]) -> Stepped:
    episode = state.current("main_match", "spending", "naming")
    episode.stage = "death_matches" if episode.death_matches else "done"
    pairs = [{"ec": dm.ec, "opponent": dm.opponent, "protected": dm.protected} for dm in episode.death_matches]
    events.append(SeasonEvent("death_matches_set", {"episode": episode.number, "pairs": pairs}))
    if not episode.death_matches:
        events.append(SeasonEvent("episode_ended", {"episode": episode.number, "eliminated": []}))
    return Stepped(state, tuple(events))


def _turn(state: SeasonState, ec: str) -> tuple[Episode, Naming | None]:
    """The episode and `ec`'s naming when it is done already (None: it is their turn now)."""
    episode = state.episode
    done = next((n for n in episode.namings if n.ec == ec and n.done), None) if episode else None
    if episode is not None and done is not None:
        return episode, done
    episode = state.current("naming")
    turn = naming_turn(state)
    if ec not in [n.ec for n in episode.namings]:
        raise NotNow(f"{ec} is no EC naming an opponent in episode {episode.number}")
    if turn != ec:
        raise NotNow(f"{turn} names first (the better-placed EC); then {ec}")
    return episode, None


def name_opponent(state: SeasonState, ec: str, opponent: str, by: NamedBy = "ec") -> Stepped:
    """`ec` (or the host for them: `by="host"`) names `opponent`. The same pick again: nothing."""
    episode, done = _turn(state, ec)
    if done is not None:
        if done.opponent == opponent:
            return unchanged(state)
        raise AlreadyDone(already_named(done))
    allowed = eligible(state, episode, ec)
    if opponent not in allowed.players:
        raise NotEligible(f"{ec} may not name {opponent}: they may name {', '.join(allowed.players)}")
    return _named(state, ec, opponent, by, allowed, [])


def already_named(done: Naming) -> str:
    """Why `done.ec` names nobody more: who named whom (a naming is final once taken)."""
    if done.opponent is None:
        return f"{done.ec} names nobody: no one was left to name"
    if done.by == "host":
        return f"the host already named {done.opponent} as {done.ec}'s opponent"
    if done.by == "lot":
        return f"a lot already named {done.opponent} as {done.ec}'s opponent"
    return f"{done.ec} already named {done.opponent}"


def draw_lot(state: SeasonState, ec: str) -> Stepped:
    """The host did not name for a silent `ec` in time: a lot among the eligible, drawn with the
    season's seed for this episode and EC (replayed, it draws the same). Drawn already: nothing."""
    episode, done = _turn(state, ec)
    if done is not None:
        return unchanged(state)
    allowed = eligible(state, episode, ec)
    drawn = lot(state.seed, episode.number, ec, allowed.players)
    return _named(state, ec, drawn, "lot", allowed, list(allowed.players))


def lot(seed: int, episode: int, ec: str, among: Sequence[str]) -> str:
    return random.Random(derived_seed(seed, f"episode {episode} lot {ec}")).choice(list(among))


def _named(state: SeasonState, ec: str, opponent: str, by: NamedBy, allowed: Eligible, among: list[str]) -> Stepped:
    after = copy(state)
    current = after.current("naming")
    naming = next(n for n in current.namings if n.ec == ec)
    naming.opponent, naming.by, naming.lapsed, naming.among = opponent, by, allowed.lapsed, among
    data = {"episode": current.number, "ec": ec, "opponent": opponent, "by": by, "lapsed": allowed.lapsed}
    return _settle(after, [SeasonEvent("named", data | ({"among": among} if among else {}))])
