"""Helpers for the worked matches: build a hand-written match record, check that every submission
in it is one the service would have accepted, and replay it the way `match-replay` does.

Each test_worked_*.py holds one match record written by hand and its outcome worked out by hand in
comments from the rule text (../shared/seeds/) and the rulings (../shared/RULINGS.md). Nothing in an
expectation was copied from the code's output."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

from game_core.cli.replay import main as match_replay
from game_core.games import registry
from game_core.match.engine import apply_record, parse_submission, setup_rng
from game_core.match.immediate import apply_action
from game_core.match.model import MatchRecord, PhaseRecord
from game_core.match.replay import states

DAY = 86_400


def phase(
    number: int,
    name: str,
    submissions: dict[str, dict[str, Any]] | None = None,
    *,
    elapsed: int = DAY,
    extension: int = 0,
    timed_out: bool = True,
    actions: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One phase of a record as the service exports it; `actions` are its immediate actions
    (`action`), in arrival order."""
    return PhaseRecord.model_validate(
        {
            "number": number,
            "name": name,
            "actions": actions or [],
            "submissions": submissions or {},
            "elapsed_seconds": elapsed,
            "extension_seconds": extension,
            "timed_out": timed_out,
        }
    ).model_dump(mode="json")


def action(actor: str | None, kind: str, body: dict[str, Any], at: str) -> dict[str, Any]:
    """An immediate action as recorded: who (None: the host), what, and when it arrived (ISO 8601)."""
    return {"actor": actor, "kind": kind, "action": body, "at": at}


def record(
    match_id: str,
    game: str,
    settings: dict[str, Any],
    players: list[str],
    garnets: dict[str, int],
    phases: list[dict[str, Any]],
    seed: int = 1,
) -> dict[str, Any]:
    return {
        "match_id": match_id,
        "game": game,
        "settings": settings,
        "seed": seed,
        "players": players,
        "starting_garnets": garnets,
        "phases": phases,
        "status": "finished",
    }


def replay_as_the_cli_does(raw: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    """`match-replay --json record.json`: the record written to a file, the CLI's output parsed back."""
    path = tmp_path / f"{raw['match_id']}.record.json"
    path.write_text(json.dumps(raw, indent=1), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert match_replay(["--json", str(path)]) == 0
    outcome: dict[str, Any] = json.loads(out.getvalue())
    return outcome


def garnets_spent_in_a_legal_match(raw: dict[str, Any]) -> dict[str, int]:
    """Walk the record as the service would have: each phase is the one the game opens, its
    immediate actions are ones it allows and their senders can pay for, each submitter may act in
    it, each submission is well formed and legal in its position with the sender's balance at that
    time (a transfer moves garnets between purses). Returns the garnets each participant spent."""
    rec = MatchRecord.model_validate(raw)
    game = registry.load(rec.game)
    state = game.setup(game.Settings.model_validate(rec.settings), tuple(rec.players), setup_rng(rec.seed))
    balance = dict(rec.starting_garnets)
    spent = {p: 0 for p in rec.players}
    for number, ph in enumerate(rec.phases, start=1):
        assert ph.number == number
        opening = game.open_phase(state)
        assert opening is not None and opening.name == ph.name, (number, ph.name, opening)
        for act in ph.actions:
            assert act.actor is None or act.kind in opening.actions, (number, act.actor, act.kind)
            acted = apply_action(game, state, act)
            if act.actor is not None:  # the host's acts move no garnets
                assert -acted.garnets.get(act.actor, 0) <= balance.get(act.actor, 0), (number, act.actor, act.kind)
                # A transfer moves garnets between purses; what leaves them all is spent.
                spent[act.actor] += max(0, -sum(acted.garnets.values()))
            for who, change in acted.garnets.items():
                balance[who] = balance.get(who, 0) + change
            state = acted.state
        if opening.seconds is not None:
            assert ph.elapsed_seconds - ph.extension_seconds <= opening.seconds, f"phase {number} overran its clock"
        for player, kinds in ph.submissions.items():
            assert player in opening.actors, (number, player)
            for kind, body in kinds.items():
                assert kind in opening.accepts, (number, player, kind)
                submission = parse_submission(game, kind, body)
                assert game.check(state, player, kind, submission) == [], (number, player)
                cost = game.garnet_cost(kind, submission)
                assert cost <= balance.get(player, 0), (number, player, cost)
                balance[player] = balance.get(player, 0) - cost
                spent[player] += cost
        state = apply_record(game, state, rec.seed, ph)
    assert game.open_phase(state) is None, "the record ends before the match does"
    return spent


def private_view_at_the_end(raw: dict[str, Any], participant: str) -> dict[str, Any]:
    """What `participant` is told of the finished match (their own seat), replayed from the record."""
    rec = MatchRecord.model_validate(raw)
    *_, (_phase, final) = states(rec)
    view: dict[str, Any] = registry.load(rec.game).view(final, participant)["private"]
    return view
