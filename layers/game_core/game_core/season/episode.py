"""A season's start, each episode's start and its Main Match's result, and the spending of
Tokens of Life (RULINGS.md, "Seasons": "Garnets and ToL carry", "An EC holding a ToL")."""

from __future__ import annotations

from game_core.season.errors import AlreadyDone, NotNow, SettingsRefused, WrongMatch
from game_core.season.naming import begin_naming
from game_core.season.outcome import MainOutcome, main_outcome
from game_core.season.settings import SeasonSettings
from game_core.season.state import Episode, SeasonEvent, SeasonPlayer, SeasonState, Stepped, copy, unchanged


def new_season(settings: SeasonSettings, season_id: str) -> Stepped:
    """The season before its first episode: every cast member in it, holding no ToL."""
    if settings.seed is None:
        raise SettingsRefused("a season is created with its seed (the service draws one when none is given)")
    state = SeasonState(season_id=season_id, seed=settings.seed, players=[SeasonPlayer(id=m.id) for m in settings.cast])
    data = {
        "players": [m.id for m in settings.cast],
        "episodes": len(settings.episodes),
        "finals_at": settings.finals_at,
    }
    return Stepped(state, (SeasonEvent("season_created", data),))


def episode_players(state: SeasonState) -> list[str]:
    """The next episode's players: those left in the season and not finalists, in cast order."""
    return [p.id for p in state.players if p.left and p.finalist_in is None]


def start_episode(state: SeasonState, number: int, main_match_id: str) -> Stepped:
    """Episode `number` begins with its Main Match `main_match_id` among `episode_players`. Sent
    again with the same match: nothing changes; the previous episode must be done."""
    last = state.episode
    if last is not None and last.number == number:
        if last.main_match_id != main_match_id:
            raise WrongMatch(f"episode {number} already plays match {last.main_match_id}, not {main_match_id}")
        return unchanged(state)
    if state.stage != "episode" or (last is not None and last.stage != "done") or number != len(state.episodes) + 1:
        done = len(state.episodes)
        raise NotNow(f"episode {number} cannot begin now: season {state.season_id} is at episode {done}, {state.stage}")
    after = copy(state)
    players = episode_players(state)
    after.episodes.append(Episode(number=number, players=players, main_match_id=main_match_id))
    data = {"episode": number, "players": players, "match_id": main_match_id}
    return Stepped(after, (SeasonEvent("episode_started", data),))


def main_match_ended(state: SeasonState, settings: SeasonSettings, match_id: str, result: dict) -> Stepped:  # type: ignore[type-arg]
    """The Main Match's result: ToL won and garnets carried, finalists, the ECs in naming order
    and the pair a result fixes; then the ECs holding a ToL may spend one (when the season allows
    it), or the naming begins. The same result again: nothing changes."""
    episode = state.episode
    if episode is not None and episode.main_match_id == match_id and episode.stage != "main_match":
        return unchanged(state)
    episode = state.current("main_match")
    if match_id != episode.main_match_id:
        raise WrongMatch(f"episode {episode.number} waits for match {episode.main_match_id}, not {match_id}")
    outcome = main_outcome(result, episode.players, match_id)
    after = copy(state)
    _carry(after, outcome, episode.number)
    current = after.current("main_match")
    current.places, current.winners, current.ecs = outcome.places, list(outcome.winners), list(outcome.ecs)
    events = [SeasonEvent("main_match_ended", _outcome_data(episode.number, match_id, outcome))]
    if outcome.pair is not None:
        current.fixed_pair = True
    elif settings.tol_spending:
        current.spend_pending = [ec for ec in current.ecs if after.player(ec).tol > 0]
    if current.spend_pending:
        current.stage = "spending"
        events.append(SeasonEvent("spending_open", {"episode": episode.number, "may_spend": current.spend_pending}))
        return Stepped(after, tuple(events))
    return begin_naming(after, events, outcome.pair)


def _carry(state: SeasonState, outcome: MainOutcome, number: int) -> None:
    for player_id, tokens in outcome.tol.items():
        state.player(player_id).tol += tokens
    cast = {p.id for p in state.players}
    for player_id, garnets in outcome.garnets.items():
        if player_id in cast:  # a guest's garnets went back to their player when the match ended
            state.player(player_id).garnets_won += garnets
    for player_id in outcome.finalists:
        state.player(player_id).finalist_in = number


def _outcome_data(number: int, match_id: str, outcome: MainOutcome) -> dict:  # type: ignore[type-arg]
    pair = outcome.pair
    return {
        "episode": number,
        "match_id": match_id,
        "places": outcome.places,
        "tol_won": outcome.tol,
        "garnets_won": outcome.garnets,
        "ecs": list(outcome.ecs),
        "finalists": list(outcome.finalists),
        **({"pair": {"ec": pair.ec, "opponent": pair.opponent, "protected": pair.protected}} if pair else {}),
    }


def spend_tol(state: SeasonState, ec: str) -> Stepped:
    """`ec` spends a ToL: safe this episode, and the next-lowest player of the result who is no EC,
    not safe and no winner becomes EC in their place (a tie there: the host decides). Sent again:
    nothing changes."""
    episode = state.episode
    if episode is not None and ec in episode.safe:
        return unchanged(state)
    episode = state.current("spending")
    if ec not in episode.spend_pending:
        raise AlreadyDone(f"{ec} may not spend a ToL now (they are no EC holding one, or they kept it)")
    if episode.replacement_tie:  # who replaces the last spender decides who may replace this one
        tied = ", ".join(episode.replacement_tie)
        raise NotNow(f"the host first picks the EC among {tied}; then {ec} may spend")
    after = copy(state)
    current = after.current("spending")
    after.player(ec).tol -= 1
    current.spend_pending.remove(ec)
    current.ecs.remove(ec)
    current.safe.append(ec)
    events = [SeasonEvent("tol_spent", {"episode": current.number, "player": ec, "tol_left": after.player(ec).tol})]
    events += _replace(after, current, ec)
    return _settle_spending(after, events)


def _replace(state: SeasonState, episode: Episode, spender: str) -> list[SeasonEvent]:
    """The next-lowest player who is no EC, not safe, no winner and no finalist becomes EC, or
    the tie there waits for the host; nobody: the episode has one EC fewer."""
    barred = {*episode.ecs, *episode.safe, *episode.winners, *state.finalists}
    candidates = [p for p in episode.players if p not in barred]
    if not candidates:
        return [SeasonEvent("no_replacement", {"episode": episode.number, "for": spender})]
    lowest = max(episode.places[p] for p in candidates)
    tied = [p for p in candidates if episode.places[p] == lowest]
    if len(tied) > 1:
        episode.replacement_tie = tied
        return [SeasonEvent("replacement_tie", {"episode": episode.number, "for": spender, "tied": tied})]
    return _make_ec(state, episode, tied[0], spender, by_host=False)


def _make_ec(state: SeasonState, episode: Episode, player: str, spender: str, by_host: bool) -> list[SeasonEvent]:
    listed = list(episode.places)  # the result's order: it orders ECs of one place
    episode.ecs = sorted([*episode.ecs, player], key=lambda p: (episode.places[p], listed.index(p)))
    if state.player(player).tol > 0:
        episode.spend_pending.append(player)  # a replacement holding a ToL may spend one in turn
    data = {"episode": episode.number, "player": player, "for": spender, "by_host": by_host}
    return [SeasonEvent("ec_replaced", data)]


def decide_replacement(state: SeasonState, player: str) -> Stepped:
    """The host picks, among those tied for the next-lowest place, who becomes EC."""
    episode = state.episode
    if episode is not None and not episode.replacement_tie and player in episode.ecs:
        return unchanged(state)
    episode = state.current("spending")
    if player not in episode.replacement_tie:
        raise NotNow(f"no tie for EC waits for the host with {player} in it (tied: {episode.replacement_tie})")
    after = copy(state)
    current = after.current("spending")
    current.replacement_tie = []
    spender = current.safe[-1]
    return _settle_spending(after, _make_ec(after, current, player, spender, by_host=True))


def keep_tol(state: SeasonState, ec: str) -> Stepped:
    """`ec` keeps their ToL (or names an opponent, which says as much). Sent again: nothing."""
    episode = state.current("spending", "naming", "death_matches", "done")
    if ec not in episode.spend_pending:
        return unchanged(state)
    after = copy(state)
    current = after.current("spending")
    current.spend_pending.remove(ec)
    events = [SeasonEvent("tol_kept", {"episode": current.number, "player": ec})]
    return _settle_spending(after, events)


def close_spending(state: SeasonState) -> Stepped:
    """The naming deadline passed on the spending: every EC still silent keeps their ToL. A tie
    for the replacement still waits for the host."""
    episode = state.episode
    if episode is None or episode.stage != "spending" or episode.replacement_tie:
        return unchanged(state)
    after = copy(state)
    current = after.current("spending")
    kept, current.spend_pending = current.spend_pending, []
    events = [SeasonEvent("tol_kept", {"episode": current.number, "player": ec, "silent": True}) for ec in kept]
    return _settle_spending(after, events)


def _settle_spending(state: SeasonState, events: list[SeasonEvent]) -> Stepped:
    """Spending is over when no EC holding a ToL is left to answer and no tie waits: the naming
    begins."""
    episode = state.current("spending")
    if episode.spend_pending or episode.replacement_tie:
        return Stepped(state, tuple(events))
    return begin_naming(state, events, None)
