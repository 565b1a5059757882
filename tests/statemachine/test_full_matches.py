"""Every game and rule set, played to the end by bots on the real ASL executed by moto.

Given a match created through the host-commands handler (Clubs': test_clubs_match.py's, played
once for both: played_matches.CLUBS)
When bots play it through the webhook handler, reading only their own SNS inboxes
Then the state machine succeeds, the exported record replays to the live result (same bytes
twice through the CLI), and every message a participant received is exactly their view of the
state at that moment: nothing else ever left the service.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from played_matches import CLUBS, played

from game_core.games import registry
from game_core.match.engine import guests_per_player, setup_rng
from game_core.match.model import MatchRecord
from game_core.match.replay import canonical_json, replay, replay_phase
from local_stack.aws.metering import item_size
from local_stack.bots.play import bot_matches, seat

pytestmark = pytest.mark.statemachine

MATCHES = bot_matches("typical")
"""Every available game and rule set, with a typical match's players (`Game.demo`)."""


def views_after_each_phase(record: MatchRecord, player: str | None) -> list[dict]:
    """The player's view at creation and after every resolved phase, rebuilt from the record."""
    game = registry.load(record.game)
    state = game.setup(game.Settings.model_validate(record.settings), tuple(record.players), setup_rng(record.seed))
    views = [game.view(state, player)]
    for phase in record.phases:
        state = replay_phase(game, state, record.seed, phase)
        views.append(game.view(state, player))
    return json.loads(json.dumps(views))


def request_for(game_id: str, rule_set: str, players: int) -> dict:
    """The match a case plays: its players, phases of 8 seconds (early close ends them sooner; only
    mm8's pregame, with no submissions, runs out). Clubs' is test_clubs_match.py's, its three
    players with their guests and garnets, and an hour a phase for the bots' thinking."""
    if game_id == "clubs":
        assert (rule_set, len(CLUBS["players"])) == ("default", players)
        return CLUBS
    return {
        "game": game_id,
        "settings": {"rule_set": rule_set},
        "players": [seat(f"p{i:02d}", guests_per_player(registry.load(game_id))) for i in range(1, players + 1)],
        "phase_seconds": 8,
        "early_close": True,
        "seed": 4242,
    }


@pytest.mark.parametrize(("game_id", "rule_set", "players"), MATCHES, ids=[f"{g}-{r}" for g, r, _ in MATCHES])
def test_a_bot_match_runs_to_the_end_and_every_message_is_the_recipients_view(tmp_path, game_id, rule_set, players):
    match = played(request_for(game_id, rule_set, players))
    run, exported, items = match.run, match.exported, match.items

    assert run.status == "SUCCEEDED"
    # Every item of the match, as DynamoDB bills it, under 16 KB (the state is compressed).
    largest = max(items, key=item_size)
    assert item_size(largest) <= 16 * 1024, (largest["sk"], item_size(largest))
    assert all(status == 200 for _, status, _ in run.replies), [r for r in run.replies if r[1] != 200]
    record = MatchRecord.model_validate(exported)
    assert record.status == "finished"

    # Replay equals the live result, and the CLI prints the same bytes twice.
    assert replay(record)["result"] == record.result == run.result
    path = tmp_path / "record.json"
    path.write_text(json.dumps(exported))
    outputs = [
        subprocess.run(
            [sys.executable, "-m", "game_core.cli.replay", "--json", str(path)], capture_output=True, check=True
        ).stdout
        for _ in range(2)
    ]
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0]) == json.loads(canonical_json(replay(record)))

    # Every announcement is the public view, every private notice the recipient's own view, in order.
    assert [a["view"] for a in run.announcements] == views_after_each_phase(record, None)
    for player in record.players:
        notices = run.private[player]
        assert all(notice["you"] == player for notice in notices)
        assert [n["view"] for n in notices] == views_after_each_phase(record, player)
