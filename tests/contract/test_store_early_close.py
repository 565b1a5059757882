"""Early close on the store: a submission that leaves its sender done joins `done` only on `done`
as read (nobody yet: `done` absent; someone: its size), and the one that leaves every actor done
requests the resolution only on the version and the machine's wait token as read. Each on
DynamoDB (moto) and on the service tests' MemoryStore (`bench`).

Why the size matters: with three players or more, the last two to send may each read `done`
before the other joined it; each then thinks someone else still owes the phase, and without the
condition both would land, neither asking for the resolution: the phase would wait its whole
deadline. With it, the second raises HeaderMoved, reads again, and is the one that closes."""

from __future__ import annotations

import pytest
from store_bench import IN_TIME, STORES, T0, Bench, cancel, each_store, moto_client, moved, submit

from game_core.errors import Late
from game_core.match.model import Match
from game_core.service.matches.sheets import HeaderMoved
from game_core.service.ports import Completion, Event

dynamodb = pytest.fixture(scope="module")(moto_client)
bench = pytest.fixture(params=STORES)(each_store)


def test_a_completion_joins_done_only_on_done_as_read(bench: Bench) -> None:
    match = bench.crates()
    submit(bench.store, match, "ada", completion=Completion(frozenset(), None))
    assert bench.store.submission_view(match.match_id, "ada", None).done == {"ada"}
    # bo read the header before ada was done
    with pytest.raises(HeaderMoved):
        submit(bench.store, match, "bo", completion=Completion(frozenset(), None))
    assert bench.store.submissions(match.match_id, 1) == {"ada": {"multipliers": {"cost": 0}}}
    submit(bench.store, match, "bo", completion=Completion(frozenset({"ada"}), None))
    assert bench.store.submission_view(match.match_id, "bo", None).done == {"ada", "bo"}


def _closing(match: Match, token: str | None, done_before: frozenset[str] = frozenset()) -> Completion:
    closing = moved(match, resolve_requested=True, closed_at=IN_TIME)
    return Completion(done_before, token, closing, Event("resolve_requested", IN_TIME, {}))


def test_a_wait_token_is_kept_only_for_the_clock_it_waited_on(bench: Bench) -> None:
    match = bench.crates()
    assert match.phase is not None
    assert bench.store.set_task_token(match.match_id, 1, match.phase.version + 1, "stale") is False
    assert bench.store.set_task_token(match.match_id, 2, match.phase.version, "stale") is False
    assert bench.store.task_token(match.match_id) is None
    assert bench.store.set_task_token(match.match_id, 1, match.phase.version, "t-1") is True
    assert bench.store.task_token(match.match_id) == "t-1"
    cancel(bench, match)
    assert bench.store.set_task_token(match.match_id, 1, match.phase.version, "t-2") is False
    assert bench.store.task_token(match.match_id) == "t-1"


def test_the_closing_submission_stores_the_resolution_request_on_the_token_it_read(bench: Bench) -> None:
    match = bench.crates()
    assert match.phase is not None
    bench.store.set_task_token(match.match_id, 1, match.phase.version, "t-1")
    submit(bench.store, match, "ada", completion=_closing(match, "t-1"))
    stored = bench.store.get(match.match_id)
    assert stored.phase is not None and stored.phase.resolve_requested
    assert stored.version == match.version + 1
    assert [event.type for event in bench.store.events(match.match_id)].count("resolve_requested") == 1
    # The phase is closed for resolution: nothing more lands
    with pytest.raises(Late):
        submit(bench.store, stored, "bo")


@pytest.mark.parametrize("read", [None, "t-0"])
def test_a_closing_submission_whose_wait_token_changed_meanwhile_writes_nothing(bench: Bench, read: str | None) -> None:
    # The machine began another wait after the closer read the header (none yet, or "t-0"): the
    # closer must read its token again, or it would wake a wait that is over
    match = bench.crates()
    assert match.phase is not None
    if read is not None:
        bench.store.set_task_token(match.match_id, 1, match.phase.version, read)
    bench.store.set_task_token(match.match_id, 1, match.phase.version, "t-1")
    with pytest.raises(HeaderMoved):
        submit(bench.store, match, "ada", completion=_closing(match, read))
    stored = bench.store.get(match.match_id)
    assert stored.phase is not None and not stored.phase.resolve_requested
    assert bench.store.submissions(match.match_id, 1) == {}


def test_a_closing_submission_on_a_match_that_moved_meanwhile_writes_nothing(bench: Bench) -> None:
    match = bench.crates()
    bench.store.save(match, moved(match, extension_seconds=600), Event("extended", T0))
    with pytest.raises(HeaderMoved):
        submit(bench.store, match, "ada", completion=_closing(match, None))
    stored = bench.store.get(match.match_id)
    assert stored.phase is not None and (stored.phase.extension_seconds, stored.phase.resolve_requested) == (600, False)


def test_of_two_last_submitters_racing_the_second_is_told_to_read_again_and_the_phase_closes_once(
    bench: Bench,
) -> None:
    # Three players: ada is done; bo and cy each read done = {ada}, so each judged that the other
    # still owed the phase and sent a completion that does not close it
    match = bench.crates(players=("ada", "bo", "cy"))
    assert match.phase is not None
    bench.store.set_task_token(match.match_id, 1, match.phase.version, "t-1")
    submit(bench.store, match, "ada", completion=Completion(frozenset(), "t-1"))
    read_by_both = frozenset({"ada"})
    submit(bench.store, match, "bo", completion=Completion(read_by_both, "t-1"))
    with pytest.raises(HeaderMoved):
        submit(bench.store, match, "cy", completion=Completion(read_by_both, "t-1"))
    # cy's submission is not stored, and done holds the two that landed
    assert bench.store.submission_view(match.match_id, "cy", None).sheet is None
    assert bench.store.submission_view(match.match_id, "cy", None).done == {"ada", "bo"}
    # cy reads again: done = {ada, bo}, so cy's is the last, and closes the phase
    submit(bench.store, match, "cy", completion=_closing(match, "t-1", frozenset({"ada", "bo"})))
    stored = bench.store.get(match.match_id)
    assert stored.phase is not None and stored.phase.resolve_requested
    assert stored.done == {"ada", "bo", "cy"}
    assert [event.type for event in bench.store.events(match.match_id)].count("resolve_requested") == 1
