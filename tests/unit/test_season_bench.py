"""bin/bench season splits the season execution's history into episodes (benchmarks/season.py)."""

from __future__ import annotations

from benchmarks.season import episodes


def entered(*names: str) -> list[dict]:
    return [{"type": "StateEntered", "stateEnteredEventDetails": {"name": name}} for name in names]


def test_each_episode_runs_from_its_main_match_to_the_next_and_the_finals_to_the_end() -> None:
    history = entered(
        *("Advance", "Next stage"),  # the season begins: its first episode's match started
        *("Main Match", "Advance", "Next stage", "Naming", "Advance", "Next stage"),
        *("Death Matches", "Death Match", "Death Match", "Eliminate", "Next stage"),  # two at once
        *("Main Match", "Main Match", "Advance", "Next stage", "Naming", "Advance", "Next stage"),  # a recheck
        *("Death Matches", "Death Match", "Eliminate", "Next stage"),
        *("Finals", "Advance", "Next stage", "Season over"),
    )
    history.insert(3, {"type": "TaskScheduled"})  # other events are no transitions
    # Worked by hand: 6 + 5 states in the first episode, 7 + 4 in the second
    assert episodes(history) == [("start", 2), ("episode 1", 11), ("episode 2", 11), ("finals", 4)]
