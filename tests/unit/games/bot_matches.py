"""Bot matches through a game alone (no match layer), for the tests that hold every registered
game to the protocol: each game and rule set (`CASES`) played by its bot, immediate actions
included, with every call of the game's functions watched for changing what it was handed.

`play_through(game_id, rule_set, seed)` gives every position the match passed through (the
setup, each phase once its immediate actions were taken, each resolution), the public view after
each phase, the result, and `impure`: every call of resolve, check, view, act or result that
changed its inputs (a game's functions are pure: the match layer hands the same state to every
view it renders and to the resolution after them).
"""

from __future__ import annotations

import json
import random
import typing
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from game_core.errors import Illegal
from game_core.games import registry
from game_core.games.capabilities import ActsAtOnce
from game_core.games.protocol import AnyGame, Model, OpenPhase, Resolution
from game_core.match.engine import guests_per_player
from local_stack.bots import Acting, acting_bot_for, bot_for

START_MS = 1_796_083_200_000
"""2026-12-01 00:00 UTC on the match clock, in milliseconds (what `act` is told)."""
PHASE_MS = 3_600_000
"""How far the clock moves when a phase resolves: an hour, more than any bot thinks."""
PLAYER_GARNETS = 3
"""Each player's garnets at the start (a guest starts with none): enough for a bot to give some
to its guest and for the guest to buy a peek."""


def rule_sets(game: AnyGame) -> tuple[str, ...]:
    """The rule sets a game's settings accept (the `rule_set` field's literal values)."""
    return typing.get_args(game.Settings.model_fields["rule_set"].annotation) or ("default",)


CASES = [(game_id, rule_set) for game_id in registry.AVAILABLE for rule_set in rule_sets(registry.load(game_id))]
IDS = [f"{game_id}-{rule_set}" for game_id, rule_set in CASES]


def players_for(game: AnyGame) -> tuple[str, ...]:
    """Every participant, in team order where the game hosts guests (each player, then theirs)."""
    count = max(game.min_players, min(6, game.max_players)) * (1 + guests_per_player(game))
    return tuple(f"p{i:02d}" for i in range(1, count + 1))


def standing_players(game: AnyGame) -> tuple[str, ...]:
    """The participants who are players (the standings name them; guests score for their team)."""
    return players_for(game)[:: 1 + guests_per_player(game)]


def dumped(value: Any) -> Any:
    """A value as JSON data, models and the containers holding them alike (to compare deeply)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, dict):
        return {key: dumped(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [dumped(item) for item in value]
    return value


@dataclass
class Watched:
    """The game's functions, each call checked to leave its inputs as they were handed to it."""

    game: AnyGame
    impure: list[str] = field(default_factory=list)
    calls: Counter[str] = field(default_factory=Counter)

    def _call(self, name: str, inputs: dict[str, Any], call: Callable[[], Any]) -> Any:
        before = {what: dumped(value) for what, value in inputs.items()}
        returned = call()
        self.calls[name] += 1
        for what, value in inputs.items():
            found = f"{self.game.id}.{name} changed the {what} it was handed"
            if dumped(value) != before[what] and found not in self.impure:
                self.impure.append(found)
        return returned

    def view(self, state: Model, player: str | None) -> dict[str, Any]:
        view: dict[str, Any] = self._call("view", {"state": state}, lambda: self.game.view(state, player))
        return view

    def check(self, state: Model, player: str, kind: str, submission: Model) -> list[Any]:
        inputs = {"state": state, "submission": submission}
        reasons: list[Any] = self._call("check", inputs, lambda: self.game.check(state, player, kind, submission))
        return reasons

    def act(self, state: Model, actor: str, kind: str, action: Model, at_ms: int) -> Any:
        assert isinstance(self.game, ActsAtOnce)
        acts = self.game
        return self._call(
            "act", {"state": state, "action": action}, lambda: acts.act(state, actor, kind, action, at_ms)
        )

    def resolve(self, state: Model, resolution: Resolution) -> Model:
        inputs = {"state": state, "submissions": resolution.submissions}
        resolved: Model = self._call("resolve", inputs, lambda: self.game.resolve(state, resolution))
        return resolved

    def result(self, state: Model) -> dict[str, Any]:
        outcome: dict[str, Any] = self._call("result", {"state": state}, lambda: self.game.result(state).to_json())
        return outcome


@dataclass
class Table:
    """The match as the bots' immediate actions change it: the state, the match clock, and each
    participant's free garnets (the match layer refuses an action taking more than the sender holds)."""

    watched: Watched
    state: Model
    purses: dict[str, int]
    now_ms: int = START_MS

    def acting(self, player: str) -> Acting:
        return Acting(
            send=lambda kind, action: self.send(player, kind, action),
            think=self.think,
            standing=lambda: {
                "view": self.watched.view(self.state, player),
                "garnets": {"balance": self.purses[player], "available": self.purses[player]},
            },
        )

    def send(self, player: str, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        """One action applied at once, as the match layer applies it; an empty answer when refused."""
        game = self.watched.game
        assert isinstance(game, ActsAtOnce)
        phase = game.open_phase(self.state)
        assert phase is not None and player in phase.actors
        if kind not in phase.actions:
            return {}
        action = game.actions[kind].model_validate(payload)
        try:
            acted = self.watched.act(self.state, player, kind, action, self.now_ms)
        except Illegal:
            return {}
        if -acted.garnets.get(player, 0) > self.purses[player]:
            return {}
        for who, change in acted.garnets.items():
            self.purses[who] += change
        self.state = acted.state
        answer: dict[str, Any] = acted.answer
        return answer

    def think(self, seconds: float) -> None:
        self.now_ms += round(seconds * 1000)


@dataclass
class Played:
    trail: list[str]
    """The public view after each phase, as JSON text."""
    result: dict[str, Any]
    states: list[Model]
    """Every position: the setup, each phase after its immediate actions, each resolution."""
    impure: list[str]
    calls: Counter[str]
    sent: list[tuple[str, Model]]
    """Every submission a bot sent, with its kind, in order."""


def play_through(game_id: str, rule_set: str, seed: int) -> Played:
    """A bot match through the game alone: every bot takes its immediate actions in turn (a game
    that `ActsAtOnce`), then each chooses its submissions from its view; each phase resolves with
    every actor's."""
    game = registry.load(game_id)
    watched = Watched(game)
    settings = game.Settings(rule_set=rule_set)
    players = players_for(game)
    purses = {p: PLAYER_GARNETS if p in standing_players(game) else 0 for p in players}
    table = Table(watched, game.setup(settings, players, random.Random(seed)), purses)
    choose, acts = bot_for(game_id), acting_bot_for(game_id)
    kinds = {kind.name: set(kind.accepts) for kind in game.timeline(settings)}
    trail, states, sent = [], [table.state], []
    for step in range(10_000):
        phase = game.open_phase(table.state)
        if phase is None:
            break
        assert set(phase.accepts) <= kinds[phase.name], f"{phase.name} accepts kinds the timeline lacks"
        assert set(phase.actors) <= set(players)
        rngs = {player: random.Random(f"{seed}:{step}:{player}") for player in phase.actors}
        views = {player: watched.view(table.state, player) for player in phase.actors}
        json.dumps(views)
        if acts is not None and phase.actions:
            for player in phase.actors:
                acts(views[player], phase, player, rngs[player], table.acting(player))
            states.append(table.state)
        state = table.state
        submissions = {
            player: submitted(watched, state, phase, player, choose(views[player], phase, player, rngs[player]))
            for player in phase.actors
        }
        sent += [(kind, submission) for chosen in submissions.values() for kind, submission in chosen.items()]
        resolution = Resolution(submissions=submissions, rng=random.Random(f"{seed}:{step}"))
        table.state = state = watched.resolve(state, resolution)
        table.now_ms += PHASE_MS
        data = state.model_dump(mode="json")
        assert game.State.model_validate(data).model_dump(mode="json") == data, "the state survives JSON"
        assert game.State.model_validate_json(json.dumps(data)) == state, "the state survives JSON text"
        states.append(state)
        trail.append(json.dumps(watched.view(state, None), sort_keys=True))
    else:
        raise AssertionError("the match never ended")
    return Played(trail, watched.result(table.state), states, watched.impure, watched.calls, sent)


def submitted(
    watched: Watched, state: Model, phase: OpenPhase, player: str, chosen: dict[str, Any]
) -> dict[str, Model]:
    """A bot's chosen submissions as the game's models, each one the game finds legal."""
    game = watched.game
    parsed = {}
    for kind, payload in chosen.items():
        assert kind in phase.accepts
        submission = game.submissions[kind].model_validate(payload)
        assert watched.check(state, player, kind, submission) == [], f"{player}'s {kind} is illegal"
        parsed[kind] = submission
    return parsed
