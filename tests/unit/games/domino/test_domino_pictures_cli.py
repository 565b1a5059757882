"""`match-host pictures`: the boards of any phase of an exported Domino match, written as SVG."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from domino_support import GAME

from game_core.cli.failures import CliError
from game_core.cli.host import write_pictures
from game_core.match import engine, replay
from game_core.match.model import MatchRecord, PhaseRecord
from local_stack.bots import bot_for

PLAYERS = ("ann", "bob", "cy")
SEED = 5


@pytest.fixture(scope="module")
def exported() -> dict:
    """A bot match's record, each phase applied as a replay applies it."""
    state = GAME.setup(GAME.Settings(), PLAYERS, engine.setup_rng(SEED))
    phases = []
    while (phase := GAME.open_phase(state)) is not None:
        sent = {
            player: {
                kind: GAME.submissions[kind].model_validate(body).model_dump(mode="json")
                for kind, body in bot_for("domino")(
                    GAME.view(state, player), phase, player, random.Random(player)
                ).items()
            }
            for player in PLAYERS
        }
        record = PhaseRecord(
            number=len(phases) + 1,
            name=phase.name,
            submissions=sent,
            elapsed_seconds=3_600,
            extension_seconds=0,
            timed_out=True,
        )
        state = replay.replay_phase(GAME, state, SEED, record)
        phases.append(record)
    record = MatchRecord(
        match_id="m-pictures",
        game="domino",
        settings={},
        seed=SEED,
        players=list(PLAYERS),
        starting_garnets=dict.fromkeys(PLAYERS, 0),
        phases=phases,
        status="finished",
    )
    return record.model_dump(mode="json")


@pytest.mark.parametrize("phases", [0, 2, None])
def test_the_pictures_of_a_phase_are_written(tmp_path, exported, phases):
    written = write_pictures(exported, phases, str(tmp_path))
    label = 4 if phases is None else phases
    assert sorted(path.rsplit("/", 1)[1] for path in written) == sorted(
        [f"domino-after-phase-{label}-all.svg", *(f"domino-after-phase-{label}-{p}.svg" for p in PLAYERS)]
    )
    for path in written:
        ET.parse(path)  # valid XML
    drawn = ET.parse(tmp_path / f"domino-after-phase-{label}-all.svg").getroot()
    cells = [rect for rect in drawn.iter("{http://www.w3.org/2000/svg}rect") if rect.get("class") == "cell"]
    # Nothing is placed before the second phase resolves; by the end the bots have placed tiles.
    assert (len(cells) > 0) == (label >= 2)


def test_a_game_without_pictures_is_named(tmp_path, exported):
    with pytest.raises(CliError, match="crates draws no pictures"):
        write_pictures({**exported, "game": "crates", "phases": []}, None, str(tmp_path))
