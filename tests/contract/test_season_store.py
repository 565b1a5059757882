"""The season's carried state on DynamoDB (moto, the table as template.yaml deploys it): stored
whole with its settings, every write conditional on the version read and logged under the
season's own numbers; the six-player season of issue 31 played through the service's `apply`,
each step also delivered twice (the second writes nothing), and again with an AWS fault struck
at every step (a throttle before a call, or a write applied and its reply lost), each failed step
retried as the season's machine retries it: the same log, entry for entry, and the same state as
the clean run."""

from __future__ import annotations

import sys
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError
from store_bench import moto_client

sys.path.append(str(Path(__file__).resolve().parent.parent / "unit" / "season"))

from season_memory import T0, MemorySeasonStore, SeasonIds, StepClock  # noqa: E402
from season_support import SIX_RESULTS, settings, six_player_steps  # noqa: E402

from game_core.aws.store.seasons import DynamoSeasonStore  # noqa: E402
from game_core.errors import Conflict, NotFound  # noqa: E402
from game_core.season.episode import keep_tol  # noqa: E402
from game_core.season.errors import NotNow  # noqa: E402
from game_core.season.replay import replay  # noqa: E402
from game_core.season.state import SeasonEvent, SeasonState  # noqa: E402
from game_core.service.ports import Event  # noqa: E402
from game_core.service.season.lifecycle import apply, create_season  # noqa: E402
from game_core.service.season.ports import SeasonStore  # noqa: E402
from local_stack.aws.faults import ClientFaults, Fault  # noqa: E402
from local_stack.aws.template import create_match_table  # noqa: E402

dynamodb = pytest.fixture(scope="module")(moto_client)

DATA = settings("domino", "crates", "clubs").model_dump(mode="json")
POINTS = (
    Fault("TransactWriteItems", after=True),  # the step stored, its reply lost
    Fault("TransactWriteItems"),  # the step's write throttled: nothing stored
    Fault("BatchGetItem"),  # the read throttled
    Fault("BatchGetItem", after=True),
)


def store_on(dynamodb: Any) -> DynamoSeasonStore:
    table = f"matches-{uuid.uuid4().hex[:12]}"
    create_match_table(dynamodb, table)
    return DynamoSeasonStore(dynamodb, table)


@pytest.fixture(params=["dynamodb", "memory"])
def store(request: pytest.FixtureRequest, dynamodb: Any) -> SeasonStore:
    """Each contract test on DynamoDB (a table of its own) and on the service tests' memory store."""
    return store_on(dynamodb) if request.param == "dynamodb" else MemorySeasonStore()


def logged(store: SeasonStore, season_id: str) -> list[tuple[str, str, dict[str, Any]]]:
    return [(event.type, event.at.isoformat(), event.data) for event in store.season_events(season_id)]


def test_a_season_is_stored_whole_once_and_read_back(store: SeasonStore) -> None:
    clock = StepClock()
    created = create_season(store, clock, SeasonIds(), DATA, season_id="s-1")
    stored = store.season("s-1")
    assert stored.state == created.state and stored.settings.model_dump(mode="json") == DATA
    assert sorted(created.secrets) == sorted(stored.state.secret_hashes) == ["ada", "bo", "cy", "di", "ed", "fay"]
    assert created.secrets["ada"] not in stored.state.model_dump_json()  # only its hash is kept
    with pytest.raises(Conflict, match="exists already"):
        create_season(store, clock, SeasonIds(), DATA, season_id="s-1")
    with pytest.raises(NotFound, match="no season s-2"):
        store.season("s-2")
    assert [event[0] for event in logged(store, "s-1")] == ["season_created"]


def test_a_save_from_a_stale_read_is_refused_and_writes_nothing(store: SeasonStore) -> None:
    clock = StepClock()
    create_season(store, clock, SeasonIds(), DATA, season_id="s-1")
    read = store.season("s-1").state
    moved = read.model_copy(update={"version": read.version + 1, "stage": "cancelled"})
    store.save_season(read, moved, [Event("season_cancelled", T0)])
    again = read.model_copy(update={"version": read.version + 1})
    with pytest.raises(Conflict, match="changed meanwhile"):
        store.save_season(read, again, [Event("other", T0)])
    assert store.season("s-1").state == moved
    assert [event[0] for event in logged(store, "s-1")] == ["season_created", "season_cancelled"]


def test_the_log_is_read_by_number_and_the_announced_mark_only_rises(store: SeasonStore) -> None:
    clock = StepClock()
    create_season(store, clock, SeasonIds(), DATA, season_id="s-1")
    read = store.season("s-1")
    assert (read.logged, read.announced) == (1, 0)  # season_created, nothing told yet
    moved = read.state.model_copy(update={"version": 1})
    store.save_season(read.state, moved, [Event("paused", T0), Event("resumed", T0, {"paused_seconds": 60})])
    assert store.season("s-1").logged == 3
    assert [(n, e.type, e.data) for n, e in store.season_log("s-1", 1, 3)] == [
        (2, "paused", {}),
        (3, "resumed", {"paused_seconds": 60}),
    ]
    assert [n for n, _ in store.season_log("s-1", 0, 2)] == [1, 2] and store.season_log("s-1", 3, 3) == []
    store.mark_announced("s-1", 3)
    store.mark_announced("s-1", 2)  # a retried, older mark: the mark stays
    after = store.season("s-1")
    assert after.announced == 3 and after.state == moved  # the state and its version untouched
    store.save_season(moved, moved.model_copy(update={"version": 2}), [])  # a step's write keeps the mark
    assert store.season("s-1").announced == 3
    store.mark_announced("s-gone", 1)  # a mark for no season makes none (a stub item would read as one)
    with pytest.raises(NotFound):
        store.season("s-gone")


def play(store: SeasonStore, faults: ClientFaults | None = None) -> SeasonState:
    """The six-player season, each step a minute after the last, delivered twice; with `faults`,
    step k strikes POINTS[k % 4] and is retried while it fails, as the machine's Retry does."""
    clock = StepClock()
    create_season(store, clock, SeasonIds(), DATA, season_id="s-6")
    state = store.season("s-6").state
    for number, step in enumerate(six_player_steps()):
        clock.at = T0 + timedelta(minutes=number + 1)
        if faults is not None:
            faults.arm(POINTS[number % len(POINTS)])
        for _attempt in range(3):
            try:
                state = apply(store, clock, "s-6", step)
                break
            except ClientError:
                continue
        assert apply(store, clock, "s-6", step) == state  # delivered again: nothing more
    return state


def test_the_six_player_season_plays_through_each_store_alike(store: SeasonStore) -> None:
    ended = play(store)
    assert (ended.stage, ended.champion, ended.version) == ("over", "ed", 19)  # 19 steps, each stored once
    # Created, then each step's events: episode 1 has 1 + 1 + 2 (named, pairs set) + 1 + 3 (ended,
    # eliminated, episode ended) = 8; episode 2 has 1 + 1 + 1 + 2 + 1 + 1 + 2 + 3 = 12; episode 3
    # has 1 + 2 (ended, pair set) + 1 + 3 = 7; the Finals 1 + 1 (champion) = 2
    assert len(store.season_events("s-6")) == 1 + 8 + 12 + 7 + 2


def test_the_six_player_season_lands_once_whatever_fails(dynamodb: Any) -> None:
    clean = store_on(dynamodb)
    ended = play(clean)
    faulty = store_on(dynamodb)
    faults = ClientFaults(dynamodb)
    try:
        assert play(faulty, faults) == ended
    finally:
        faults.close()
    assert len(faults.injected) == 19  # every step struck once
    assert logged(faulty, "s-6") == logged(clean, "s-6")
    # The stored log replays to the stored season (its data read back from DynamoDB's JSON)
    log = [SeasonEvent(event.type, event.data) for event in faulty.season_events("s-6")]
    replayed = replay(faulty.season("s-6").settings, "s-6", log, SIX_RESULTS)
    kept_apart = {"secret_hashes", "opened_at", "version"}  # the service's, not the rules'
    assert replayed.model_dump(exclude=kept_apart) == ended.model_dump(exclude=kept_apart)
    # A spend window the season never opened: keeping a ToL there is refused, nothing written
    with pytest.raises(NotNow, match="not waiting"):
        apply(faulty, StepClock(), "s-6", lambda _settings, s: keep_tol(s, "bo"))
