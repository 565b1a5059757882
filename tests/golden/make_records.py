"""Write the golden match records: one bot-played match per game and rule set, through the pure
match engine, with the outcome `match-replay` printed for it.

    .venv/bin/python tests/golden/make_records.py      (after a deliberate rules change only)

The test beside this file replays every record and compares the outcome byte for byte, so any
change in what a recorded match resolves to is seen and has to be explained in its commit.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from game_core.games import registry
from game_core.games.protocol import OpenPhase
from game_core.match import engine
from game_core.match.model import Match, MatchRecord, Participant
from game_core.match.replay import canonical_json, replay
from local_stack.bots import bot_for

HERE = Path(__file__).resolve().parent
MATCHES = {
    "crates-default": ("crates", "default", 12),
    "palindrome-mm8": ("palindrome", "mm8", 9),
    "palindrome-mm5": ("palindrome", "mm5", 7),
    "abstrac-row": ("abstrac", "row", 2),
    "abstrac-deal": ("abstrac", "deal", 2),
}
T0 = datetime(2026, 12, 1, tzinfo=UTC)


def bot_match(game_id: str, rule_set: str, players: int, seed: int = 2026) -> MatchRecord:
    game = registry.load(game_id)
    bot = bot_for(game_id)
    seats = tuple(f"p{i:02d}" for i in range(1, players + 1))
    match = Match(
        match_id=f"golden-{game_id}-{rule_set}",
        game=game_id,
        settings=game.Settings.model_validate({"rule_set": rule_set}).model_dump(mode="json"),
        seed=seed,
        players=tuple(Participant(id=p, name=p, secret_hash="-") for p in seats),
        phase_seconds=86_400,
        early_close=False,
        recheck_seconds=3_600,
        created_at=T0,
        starting_garnets={p: 0 for p in seats},
    )
    now = T0
    match = engine.start(match, game, now)
    records = []
    while match.phase is not None:
        clock = match.phase
        phase = OpenPhase(clock.name, clock.accepts, clock.actors)
        submissions = {}
        for player in clock.actors:
            view = game.view(engine.game_state(game, match), player)
            chosen = bot(view, phase, player, random.Random(f"{seed}:{clock.number}:{player}"))
            submissions[player] = {
                kind: engine.accept(match, game, player, clock.name, kind, body, 0, now).submission
                for kind, body in chosen.items()
            }
        now += timedelta(hours=1)
        resolved = engine.resolve(
            match.model_copy(update={"phase": clock.request_resolution(now)}), game, submissions, now
        )
        records.append(resolved.record)
        match = resolved.match
    return MatchRecord(
        match_id=match.match_id,
        game=game_id,
        settings=match.settings,
        seed=seed,
        players=list(seats),
        starting_garnets=match.starting_garnets,
        phases=records,
        status=match.status,
        result=match.result,
    )


def main() -> None:
    for name, (game_id, rule_set, players) in MATCHES.items():
        record = bot_match(game_id, rule_set, players)
        (HERE / f"{name}.record.json").write_text(record.model_dump_json(indent=1) + "\n")
        (HERE / f"{name}.outcome.json").write_text(canonical_json(replay(record)) + "\n")
        print(f"{name}: {len(record.phases)} phases")


if __name__ == "__main__":
    main()
