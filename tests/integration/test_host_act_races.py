"""A host act and a resolution racing for the same phase: whichever is stored first wins, and the
other learns it cleanly (see staging.py for how each race is staged)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from staging import FixedClock, StagedStore

from game_core.errors import Late
from game_core.service import host, phases


def _at_deadline(match):
    """The ports with the clock at the open phase's deadline: the phase is due."""
    ports = match.ports
    return replace(ports, clock=FixedClock(ports.store.get(match.match_id).phase.deadline))


@pytest.mark.parametrize("act", ["extend", "pause"])
def test_a_host_act_stored_before_the_resolution_is_honoured(crates_match, act) -> None:
    # Given the pregame is due (its deadline has come) and its resolution has read the match
    match = crates_match(2)
    ports = _at_deadline(match)
    deadline = ports.store.get(match.match_id).phase.deadline
    apply = {
        "extend": lambda: host.extend(ports, match.match_id, 600),
        "pause": lambda: host.pause(ports, match.match_id),
    }

    # When the host's act is stored just before the resolution would be
    staged = StagedStore(ports.store, "commit_resolution", apply[act])
    progress = phases.resolve(replace(ports, store=staged), match.match_id, 1)

    # Then the pregame is not resolved: it stays open, extended by 10 minutes or paused
    assert progress["due"] is False
    assert match.export()["phases"] == []
    clock = ports.store.get(match.match_id).phase
    assert (clock.number, clock.resolve_requested) == (1, False)
    if act == "extend":
        assert clock.deadline == deadline + timedelta(seconds=600)
    else:
        assert clock.paused


@pytest.mark.parametrize("act", ["extend", "pause", "resolve_now"])
def test_a_host_act_that_lands_after_the_resolution_is_refused(crates_match, act) -> None:
    # Given the pregame is due, and the host's act has read the match
    match = crates_match(2)
    ports = _at_deadline(match)

    # When the pregame's resolution is stored before the act is
    staged = StagedStore(ports.store, "save", lambda: phases.resolve(ports, match.match_id, 1))
    staged_ports = replace(ports, store=staged)
    acts = {
        "extend": lambda: host.extend(staged_ports, match.match_id, 600),
        "pause": lambda: host.pause(staged_ports, match.match_id),
        "resolve_now": lambda: host.resolve_now(staged_ports, match.match_id),
    }

    # Then the act is refused, naming the phase that resolved, and Round 1 is open untouched
    with pytest.raises(Late, match="phase 1 has already resolved"):
        acts[act]()
    clock = ports.store.get(match.match_id).phase
    assert (clock.name, clock.number, clock.paused, clock.extension_seconds) == ("Round 1", 2, False, 0)
