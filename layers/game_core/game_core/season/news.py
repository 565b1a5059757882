"""What the whole cast is told of a season, in words, from its log alone (issue 31 item 3):
each Main Match's result read into the season (ToL won, finalists, ECs), each ToL spent or kept,
each naming and who named (the EC, the host or a lot), each Death Match's result and elimination,
the Finals and the champion, and what the host did. Everything in a season's log is public: no
match's moves are in it, and a choice is logged only once made.

An occasion is one told event with the events its step always writes after it in the same
transaction (`FOLLOWERS`: "named" then "death_matches_set", "death_match_ended" then "eliminated"
and "episode_ended"...), so it reads as one piece. A follower never opens a step's write, so the
log read from any step's end splits into the same occasions, and an occasion's number (its first
entry's) names its notices the same way on every retry (service/season/news.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game_core.match.clock import duration_text
from game_core.season.settings import SeasonSettings
from game_core.season.standing import episode_line, standing
from game_core.season.state import SeasonEvent, SeasonState

FOLLOWERS = frozenset(
    {"spending_open", "no_replacement", "replacement_tie", "ec_unopposed", "death_matches_set", "eliminated"}
    | {"episode_ended"}
)
"""Events a step writes only after another of its own (never first): they join that occasion."""
UNTOLD = frozenset({"season_created", "death_match_started"})
"""Events nobody is told of: the season's own start (each match's opening notice tells its
players), and a Death Match's start (its pair was told when it was set; its two players are
told by the match)."""


@dataclass(frozen=True)
class Occasion:
    number: int
    """The log number of its first event: the notices telling it are named by it."""
    lines: tuple[str, ...]
    """What happened, a sentence a line; the first is the headline."""


def occasions(settings: SeasonSettings, numbered: Sequence[tuple[int, SeasonEvent]]) -> list[Occasion]:
    """The log's entries (with their numbers, in order) as the occasions everyone is told of."""
    said = Said(settings)
    told: list[Occasion] = []
    for number, event in numbered:
        if event.type in UNTOLD:
            continue
        lines = said.lines(event)
        if not lines:
            continue
        if _follows(event) and told:
            told[-1] = Occasion(told[-1].number, (*told[-1].lines, *lines))
        else:
            told.append(Occasion(number, tuple(lines)))
    return told


def _follows(event: SeasonEvent) -> bool:
    # A replacement EC is a follower of the ToL spent, but the host's pick of one opens its step
    return event.type in FOLLOWERS or (event.type == "ec_replaced" and not event.data.get("by_host"))


class Said:
    """Each event in words, players by their names."""

    def __init__(self, settings: SeasonSettings) -> None:
        self.settings = settings
        self.names = {member.id: member.name or member.id for member in settings.cast}

    def who(self, player: str) -> str:
        return self.names.get(player, player)

    def all(self, players: Sequence[str]) -> str:
        """ "Ada", "Ada and Bo", "Ada, Bo and Cy" ("nobody" for none)."""
        shown = [self.who(p) for p in players]
        if len(shown) < 2:
            return shown[0] if shown else "nobody"
        return ", ".join(shown[:-1]) + " and " + shown[-1]

    def lines(self, event: SeasonEvent) -> list[str]:
        if event.type in _PLAIN:
            return [self.fill(_PLAIN[event.type], event.data)]
        say = _SAYINGS.get(event.type)
        return say(self, event.data) if say is not None else []

    def fill(self, template: str, data: Mapping[str, Any]) -> str:
        """`template` with the event's data in words: an id as its player's name, a list of ids as
        "Ada, Bo and Cy", a number as it is."""
        shown = {
            key: self.all(value) if isinstance(value, list) else self.who(value) if isinstance(value, str) else value
            for key, value in data.items()
        }
        return template.format(**shown)

    def game(self, number: int) -> str:
        return self.settings.episodes[number - 1].main.label()


def _main_match_ended(said: Said, data: Mapping[str, Any]) -> list[str]:
    number = data["episode"]
    places = sorted(data["places"].items(), key=lambda placed: placed[1])
    lines = [
        f"Episode {number}'s Main Match ({said.game(number)}) is over.",
        "Places: " + ", ".join(f"{place} {said.who(player)}" for player, place in places) + ".",
    ]
    won = {player: tokens for player, tokens in data["tol_won"].items() if tokens}
    if won:
        lines.append("Tokens of Life won: " + ", ".join(f"{said.who(p)} {n}" for p, n in won.items()) + ".")
    if data["finalists"]:
        lines.append(f"To the Finals: {said.all(data['finalists'])}.")
    ecs = data["ecs"]
    if len(ecs) > 1:
        lines.append(f"Elimination Candidates: {said.all(ecs)} (they name their opponents in that order).")
    elif ecs:
        lines.append(f"Elimination Candidate: {said.who(ecs[0])}.")
    return lines


def _tol_kept(said: Said, data: Mapping[str, Any]) -> list[str]:
    silent = " (they said nothing by the deadline)" if data.get("silent") else ""
    return [f"{said.who(data['player'])} keeps their Token of Life{silent}."]


def _ec_replaced(said: Said, data: Mapping[str, Any]) -> list[str]:
    by = "The host picked " if data.get("by_host") else ""
    player = said.who(data["player"])
    return [f"{by}{player} {'as' if by else 'becomes'} Elimination Candidate in {said.who(data['for'])}'s place."]


def _named(said: Said, data: Mapping[str, Any]) -> list[str]:
    ec, opponent = said.who(data["ec"]), said.who(data["opponent"])
    if data["by"] == "host":
        lines = [f"The host named {opponent} as {ec}'s Death Match opponent ({ec} did not name in time)."]
    elif data["by"] == "lot":
        among = said.all(data.get("among", []))
        lines = [f"A lot named {opponent} as {ec}'s Death Match opponent (drawn among {among})."]
    else:
        lines = [f"{ec} named {opponent} as their Death Match opponent."]
    if data.get("lapsed"):
        lines.append("Everyone who could be named held a ToL: the ToL rule lapsed for this pick.")
    return lines


def _death_matches_set(said: Said, data: Mapping[str, Any]) -> list[str]:
    pairs = data["pairs"]
    if not pairs:
        return [f"Episode {data['episode']} has no Death Match."]
    return [
        f"Death Match: {said.who(p['ec'])} v {said.who(p['opponent'])} ({said.who(p['protected'])} protected)."
        for p in pairs
    ]


def _death_match_ended(said: Said, data: Mapping[str, Any]) -> list[str]:
    loser, winner = said.who(data["loser"]), said.who(data["winner"])
    if data.get("by_host"):
        return [f"The host named {loser} the loser of the tied Death Match with {winner}: {loser} is eliminated."]
    return [f"{winner} won the Death Match against {loser}: {loser} is eliminated."]


def _episode_started(said: Said, data: Mapping[str, Any]) -> list[str]:
    number = data["episode"]
    if number == 1:
        return []  # the whole cast plays it: its match's opening notice tells each of them
    return [f"Episode {number} begins: {said.game(number)} among {said.all(data['players'])}."]


def _finals_started(said: Said, data: Mapping[str, Any]) -> list[str]:
    return [f"The Finals begin: {said.settings.final.label()} among {said.all(data['players'])}."]


def _champion(said: Said, data: Mapping[str, Any]) -> list[str]:
    by = " (the host's pick among those tied)" if data.get("by_host") else ""
    return [f"{said.who(data['player'])} is the season's champion{by}. The season is over."]


def _guests_named(said: Said, data: Mapping[str, Any]) -> list[str]:
    guests = "; ".join(f"{said.who(p)}'s {said.all(ids)}" for p, ids in data["guests"].items())
    return [f"The host named episode {data['episode']}'s guests: {guests}."]


_PLAIN = {
    "spending_open": "{may_spend} may spend a Token of Life to be safe this episode, before anyone names.",
    "tol_spent": "{player} spent a Token of Life and is safe this episode ({tol_left} left).",
    "no_replacement": "Nobody can take {for}'s place: this episode has one Elimination Candidate fewer.",
    "replacement_tie": "{tied} are tied for {for}'s place as Elimination Candidate: the host picks.",
    "ec_unopposed": "{ec} has nobody left to name and plays no Death Match.",
    "death_match_tied": "The Death Match of {players} ended tied: the host names who is eliminated.",
    "episode_ended": "Episode {episode} is over.",
    "champion_tie": "The Finals ended with {tied} tied for first: the host names the champion.",
    "season_cancelled": "The host cancelled the season: nothing more is played.",
    "paused": "The host paused the season: its deadlines stand still until resumed.",
}
"""The events said in one sentence of their data (`Said.fill`)."""
_SAYINGS: dict[str, Callable[[Said, Mapping[str, Any]], list[str]]] = {
    "main_match_ended": _main_match_ended,
    "tol_kept": _tol_kept,
    "ec_replaced": _ec_replaced,
    "named": _named,
    "death_matches_set": _death_matches_set,
    "death_match_ended": _death_match_ended,
    "episode_started": _episode_started,
    "finals_started": _finals_started,
    "champion": _champion,
    "guests_named": _guests_named,
    "resumed": lambda _said, data: [
        f"The host resumed the season: its deadlines are put off by {duration_text(data['paused_seconds'])}."
    ],
    "extended": lambda _said, data: [
        "The season was stopped (its service failing) past the current turn's deadline: the host's"
        " recovery reopened the turn for an hour."
        if data.get("recovered")
        else f"The host put off the current naming deadline by {duration_text(data['seconds'])}."
    ],
}


def standing_lines(settings: SeasonSettings, state: SeasonState) -> list[str]:
    """The season's standing as everyone may read it (`standing.standing`, the page's): each
    player's ToL, garnets won and status, then the episodes so far."""
    seen = standing(settings, state)
    names = {p["id"]: p["name"] for p in seen["players"]}
    width = max(len(name) for name in names.values())
    lines = ["The season's standing:"]
    for p in seen["players"]:
        lines.append(f"  {p['name']:<{width}}  ToL {p['tol']}  garnets won {p['garnets_won']:<3}  {p['status']}")
    if seen["episodes"]:
        lines += ["", "Episodes so far:"]
        lines += [f"  {e['number']}. {episode_line(e, names)}" for e in seen["episodes"]]
    return lines
