"""The store's conditions that the version a write read does not already cover: each guards an
item a write made from a match it read could otherwise overwrite or double. Each test here builds
the one case where only that condition stands between the write and a wrong store (removing the
condition makes it fail), on DynamoDB (moto) and on the service tests' MemoryStore (`bench`).
The garnet sums are worked in comments."""

from __future__ import annotations

import pytest
from store_bench import IN_TIME, STORES, T0, Bench, each_store, garnets, moto_client, moved, resolved, submit

from game_core.errors import Conflict
from game_core.match.model import ActionRecord, PhaseRecord
from game_core.service.ports import Event

dynamodb = pytest.fixture(scope="module")(moto_client)
bench = pytest.fixture(params=STORES)(each_store)


def test_a_phase_record_is_stored_once_even_by_a_resolution_on_the_version_the_first_left(bench: Bench) -> None:
    # A resolution of the Pregame is stored; another one of the Pregame, built on the match the
    # first left (so the version condition holds), must not replace its record
    match = bench.crates(garnets=10)
    after, record = resolved(match)
    bench.store.commit_resolution(match, after, record, {}, {}, [])
    again = record.model_copy(update={"elapsed_seconds": 60})
    with pytest.raises(Conflict):
        bench.store.commit_resolution(after, moved(after), again, {}, {"bo": 5}, [])
    assert bench.store.phase_records(match.match_id) == [record]
    assert bench.store.get(match.match_id).version == after.version
    assert garnets(bench.store, match, "bo") == (10, 10)  # the 5 of the refused resolution not awarded


def test_an_action_record_is_stored_once_under_the_version_it_made(bench: Bench) -> None:
    # ada's transfer made version v+1; a second action that claims to make v+1 again (its `after`
    # not moved on) must not replace the first one's record
    match = bench.clubs(garnets=10)
    after = moved(match)
    first = ActionRecord(actor="ada", kind="transfer", action={"moves": {"ada": -4, "ann": 4}}, at=IN_TIME)
    bench.store.put_action(match, after, first, {"ada": -4, "ann": 4}, Event("action_taken", IN_TIME))
    second = ActionRecord(actor="bo", kind="transfer", action={"moves": {"bo": -1, "ben": 1}}, at=IN_TIME)
    with pytest.raises(Conflict):
        bench.store.put_action(after, after, second, {"bo": -1, "ben": 1}, Event("action_taken", IN_TIME))
    assert bench.store.actions(match.match_id, 1) == [first]
    assert bench.store.purses(match.match_id) == {"ann": 4, "ben": 0, "cat": 0}


def test_a_ledger_line_is_written_once(bench: Bench) -> None:
    # bo's award is written by the Pregame's resolution; a later resolution (Round 1's: its own
    # record, on the version the first left) awarding bo again would write the same "award" line
    match = bench.crates(garnets=10)
    after, record = resolved(match)
    bench.store.commit_resolution(match, after, record, {}, {"bo": 2}, [])
    round_1 = PhaseRecord(
        number=2, name="Round 1", submissions={}, elapsed_seconds=60, extension_seconds=0, timed_out=True
    )
    with pytest.raises(Conflict):
        bench.store.commit_resolution(after, moved(after), round_1, {}, {"bo": 3}, [])
    assert garnets(bench.store, match, "bo") == (12, 12)  # 10 + the first award's 2
    assert [r.number for r in bench.store.phase_records(match.match_id)] == [1]


def test_a_resolution_awards_a_player_who_has_no_garnets_yet(bench: Bench) -> None:
    # zed holds nothing in this deployment (no balance stored): the award creates the holding
    match = bench.crates(garnets=10)
    after, record = resolved(match)
    bench.store.commit_resolution(match, after, record, {}, {"zed": 5}, [])
    assert bench.store.balances(("zed",)) == {"zed": 5}


def test_a_cancel_that_read_a_sheet_replaced_since_is_a_conflict(bench: Bench) -> None:
    match = bench.crates(garnets=10)
    submit(bench.store, match, "ada", cost=3)
    read = bench.store.sheets(match.match_id, 1)
    submit(bench.store, match, "ada", cost=5)  # ada sends again after the cancel read: holds 5
    cancelled = moved(match).model_copy(update={"status": "cancelled"})
    with pytest.raises(Conflict):
        bench.store.save(match, cancelled, Event("cancelled", T0), releases=read)
    assert bench.store.get(match.match_id).status == "running"
    assert garnets(bench.store, match, "ada") == (10, 5)  # 10 less the 5 held


def test_a_cancel_counts_a_sheet_of_an_earlier_phase_as_none(bench: Bench) -> None:
    # ada's sheet names the Pregame; Round 1 is open and nobody has sent to it: the cancel reads
    # no sheet for Round 1, and ada's old one must not hold it up
    match = bench.crates(garnets=10)
    submit(bench.store, match, "ada", cost=3)
    after, record = resolved(match)
    bench.store.commit_resolution(match, after, record, {"ada": 3}, {}, [])  # ada: 10 - 3 = 7
    cancelled = moved(after).model_copy(update={"status": "cancelled"})
    bench.store.save(after, cancelled, Event("cancelled", T0), releases=bench.store.sheets(match.match_id, 2))
    assert bench.store.get(match.match_id).status == "cancelled"
    assert garnets(bench.store, match, "ada") == (7, 7)
