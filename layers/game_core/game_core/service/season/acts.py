"""An EC's own acts in a season, whatever channel brings them (mail `NAME bo`, `SPEND TOL`,
`KEEP TOL`; a webhook action; the page): the sender proven by their season secret, the opponent
read by id or by name in any case, then one step of the season (`lifecycle.apply`), taken once.

Naming says the EC keeps their ToL: sent while the spending is open, it keeps the token, then
names if it is their turn (the other ECs holding a ToL may still have to answer first). The
season's machine is woken after the act (`waits`)."""

from __future__ import annotations

import hmac
from typing import Any, Literal

from game_core.errors import NotFound, Unauthorized
from game_core.games.plain_text import Roster
from game_core.match.model import secret_hash
from game_core.season.episode import keep_tol, spend_tol
from game_core.season.errors import NotNow
from game_core.season.naming import name_opponent, naming_turn
from game_core.season.settings import SeasonSettings
from game_core.season.standing import standing
from game_core.season.state import SeasonState, Stepped
from game_core.service.ports import Clock, Ports
from game_core.service.season.lifecycle import apply
from game_core.service.season.ports import SeasonStore
from game_core.service.season.waits import wake_season

EcAct = Literal["name", "spend", "keep"]


def authenticate(state: SeasonState, player: str, secret: str) -> None:
    known = state.secret_hashes.get(player)
    if known is None:
        raise NotFound(f"{player} is not in season {state.season_id}")
    if not hmac.compare_digest(known, secret_hash(secret)):
        raise Unauthorized("the secret does not match this player")


def named(settings: SeasonSettings, word: str) -> str:
    """The cast member `word` names, by id or by name in any case; NotFound naming the cast."""
    names = {member.id: member.name or member.id for member in settings.cast}
    roster = Roster(names)
    words = word.upper().split()
    if not words:
        raise NotFound(f"NAME needs whom you name: write NAME and their id or name ({roster.choices})")
    found = roster.get(" ".join(words))
    if found is not None:
        return found
    # A name's first word(s) alone, as people write them: the match's grammar reads whole names
    # only, and so does the season's; say whose names it begins, and how to write them
    begun = [
        f"{name} ({player})" for player, name in names.items() if words and name.upper().split()[: len(words)] == words
    ]
    if begun:
        raise NotFound(f"{word!r} is only the start of {' and '.join(begun)}: write the whole name or the id")
    raise NotFound(f"{word!r} is nobody of this season ({roster.choices})")


def ec_act(ports: Ports, season_id: str, player: str, secret: str, act: EcAct, opponent: str = "") -> SeasonState:
    """`player`'s act through the ports' season store, then the season's machine woken to see it
    (`waits`; at once, not at the naming deadline). Sent again: stored once, woken again
    (a second wake finds the wait over and is ignored)."""
    if ports.seasons is None:
        raise NotFound("this deployment runs no seasons")
    state = ec_act_stored(ports.seasons, ports.clock, season_id, player, secret, act, opponent)
    wake_season(ports, season_id)
    return state


def ec_act_stored(
    store: SeasonStore, clock: Clock, season_id: str, player: str, secret: str, act: EcAct, opponent: str = ""
) -> SeasonState:
    """`player`'s act, once: name `opponent`, spend a ToL, or keep it. Sent again: nothing more.
    A name sent while other ECs may still spend keeps the sender's token and names nobody yet
    (`naming.naming_turn` of the state returned says whether it was their turn)."""
    authenticate(store.season(season_id).state, player, secret)
    return act_as(store, clock, season_id, player, act, opponent)


def ec_act_proven(ports: Ports, season_id: str, player: str, act: EcAct, opponent: str = "") -> SeasonState:
    """`ec_act` for a sender the channel proved already (a mail from the address the season's
    match registered for `player`, SES's verdicts passed: `mail_in`), then the machine woken."""
    if ports.seasons is None:
        raise NotFound("this deployment runs no seasons")
    state = act_as(ports.seasons, ports.clock, season_id, player, act, opponent)
    wake_season(ports, season_id)
    return state


def act_as(
    store: SeasonStore, clock: Clock, season_id: str, player: str, act: EcAct, opponent: str = ""
) -> SeasonState:
    """`player`'s act, the sender already proven (`ec_act_stored` says what each act does)."""
    if player not in store.season(season_id).state.secret_hashes:
        raise NotFound(f"{player} is not in season {season_id}")

    def step(settings: SeasonSettings, state: SeasonState) -> Stepped:
        if act == "spend":
            return spend_tol(state, player)
        kept = keep_tol(state, player)
        if act == "keep":
            return kept
        episode = kept.state.episode
        if episode is not None and episode.stage == "spending":
            if kept.changed:
                return kept  # kept their token; they name once the others holding one answer
            waiting = ", ".join(episode.spend_pending) or "the host's pick of an EC"
            raise NotNow(f"the naming begins once the spending is over (waiting for {waiting})")
        after = name_opponent(kept.state, player, named(settings, opponent))
        return Stepped(after.state, kept.events + after.events)

    return apply(store, clock, season_id, step)


def ec_act_reply(
    ports: Ports, season_id: str, player: str, secret: str, act: EcAct, opponent: str = ""
) -> dict[str, Any]:
    """The webhook's and the page's answer to an act: the season's public standing after it (the
    same again for an act sent again), and who names now."""
    state = ec_act(ports, season_id, player, secret, act, opponent)
    settings = ports.seasons.season(season_id).settings if ports.seasons is not None else None
    assert settings is not None  # ec_act refused a deployment without seasons
    return {"accepted": True, "act": act, "naming_turn": naming_turn(state), "season": standing(settings, state)}
