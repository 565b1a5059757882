"""The match's log keeps the order in which its entries were stored, on DynamoDB (moto) and on the
service tests' MemoryStore (`bench`), whatever their times say: entries of one moment (before,
DynamoDB ordered those by a random nonce: exports showed `phase_opened` before the
`phase_resolved` that opened it, `press_told` before its message) and entries whose writer's clock
read earlier than the one before. Writers that read the log's end at once each take numbers of
their own. Then, on DynamoDB alone: entries stored before the numbers are still read, first; a
write that loses the race for the numbers is made again and lands once.

Expected orders are the order of the writes each test makes, written out by hand."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from botocore.exceptions import ClientError
from store_bench import IN_TIME, STORES, T0, Bench, bench_on, each_store, moto_client, moved, resolved, submit

from game_core.aws.store import DynamoMatchStore
from game_core.aws.store.items import key, plain
from game_core.aws.store.log import COUNTER, LOG_ATTEMPTS
from game_core.cli.replay import logged_lines
from game_core.errors import Conflict
from game_core.match import chain
from game_core.match.model import Match
from game_core.service.matches.lifecycle import export_record
from game_core.service.ports import Event

dynamodb = pytest.fixture(scope="module")(moto_client)
bench = pytest.fixture(params=STORES)(each_store)


def logged(bench: Bench, match: Match) -> list[tuple[str, dict[str, Any]]]:
    return [(event.type, event.data) for event in bench.store.events(match.match_id)]


def save_each(bench: Bench, match: Match, events: list[Event]) -> Match:
    """Each event stored by a save of its own (a host act each), in order; the match they leave."""
    for event in events:
        after = moved(match)
        bench.store.save(match, after, event)
        match = after
    return match


def test_a_hundred_events_of_one_second_read_back_in_the_order_they_were_stored(bench: Bench) -> None:
    match = bench.crates()
    save_each(bench, match, [Event("extended", IN_TIME, {"n": n}) for n in range(100)])
    expected = [("created", "the match's creation")] + [("extended", n) for n in range(100)]
    events = bench.store.events(match.match_id)
    assert [(event.type, event.data.get("n", "the match's creation")) for event in events] == expected
    # The messages page reads the same log in the same order
    assert bench.store.header_and_events(match.match_id)[1] == events


def test_an_entry_whose_writer_clock_read_earlier_still_comes_after_the_one_stored_before_it(bench: Bench) -> None:
    # Two writers (Lambda instances) whose clocks differ by a second: the later write says 12:00:59
    match = bench.crates()
    save_each(bench, match, [Event("paused", IN_TIME), Event("resumed", IN_TIME - timedelta(seconds=1))])
    assert [event.type for event in bench.store.events(match.match_id)] == ["created", "paused", "resumed"]


def test_a_log_stored_in_one_moment_exports_chains_and_replays_as_it_happened(bench: Bench) -> None:
    # One second of a match: ada's message in the Pregame, the Pregame's resolution opening Round 1
    # (one transaction, its two entries in the order the resolution wrote them), bo's message in
    # Round 1, the host's message and its telling
    match = bench.crates()
    now = IN_TIME
    match = save_each(bench, match, [Event("press", now, {"from": "ada", "to": ["bo"]})])
    after, record = resolved(match)
    opened = [
        Event("phase_resolved", now, {"phase": "Pregame", "number": 1}),
        Event("phase_opened", now, {"phase": "Round 1", "number": 2}),
    ]
    bench.store.commit_resolution(match, after, record, {}, {}, opened)
    told = [
        Event("press", now, {"from": "bo", "to": ["ada"]}),
        Event("host_press", now, {"id": "h-1", "to": "all"}),
        Event("press_told", now, {"id": "h-1"}),
    ]
    save_each(bench, after, told)

    exported = export_record(bench.ports, match.match_id)
    assert exported.events is not None
    types = [event["type"] for event in exported.events]
    assert types == ["created", "press", "phase_resolved", "phase_opened", "press", "host_press", "press_told"]
    assert chain.head(match.match_id, exported.events)  # the chain seals this order
    # match-replay places each message under the phase open when it was sent
    assert logged_lines(exported.events) == {
        1: ["a message from ada to bo"],
        2: ["a message from bo to ada", "the host messaged everyone"],
    }


def test_writers_that_read_the_log_at_once_each_take_numbers_of_their_own(bench: Bench) -> None:
    # Five players each read the match (each on a store of their own: five Lambda instances), then
    # each submission is stored, in this order, in the same second: every one after the first took
    # numbers that another took first, and is made again under the next ones
    players = ("ada", "bo", "cy", "dee", "eve")
    match = bench.crates(players=players)
    writers = {player: bench.another_store() for player in players}
    views = {player: store.submission_view(match.match_id, player, None) for player, store in writers.items()}
    for player, store in writers.items():
        submit(store, match, player, seen=views[player].sheet)
    created, *submitted = logged(bench, match)
    assert created[0] == "created"
    assert submitted == [("submission_accepted", {"player": player}) for player in players]


# -- DynamoDB alone -------------------------------------------------------------------------------


def test_entries_stored_before_the_numbers_are_read_first_by_time_then_the_numbered_ones(dynamodb: Any) -> None:
    bench = bench_on("dynamodb", dynamodb)
    store = bench.store
    assert isinstance(store, DynamoMatchStore)
    match = bench.crates()
    pk = f"MATCH#{match.match_id}"
    # As an older deployment left the match: its log keyed by time and a random nonce, no counter
    store.client.delete_item(TableName=store.table, Key=key(pk, COUNTER))
    store.client.delete_item(TableName=store.table, Key=key(pk, "EVENT#SEQ#0000000001"))
    for sk, kind in (
        ("EVENT#2026-12-01T12:00:00.000000Z#9f0c2a11d3e4", "created"),
        ("EVENT#2026-12-01T12:00:30.000000Z#00aa11bb22cc", "paused"),
    ):
        at = sk.split("#")[1]
        store.client.put_item(
            TableName=store.table,
            Item={"pk": {"S": pk}, "sk": {"S": sk}, "type": {"S": kind}, "at": {"S": at}, "data": {"S": "{}"}},
        )
    # After the update, two instances read the match (no counter: nothing numbered yet), then
    # each stores a submission, ada's first: both take numbers after the old entries, bo's after
    # ada's (it lost the race for the first number and took the next)
    writers = {player: DynamoMatchStore(store.client, store.table) for player in ("ada", "bo")}
    views = {player: writer.submission_view(match.match_id, player, None) for player, writer in writers.items()}
    for player, writer in writers.items():
        submit(writer, views[player].match, player, seen=None, at=T0)  # clocks reading earlier than both
    expected = [
        ("created", {}),
        ("paused", {}),
        ("submission_accepted", {"player": "ada"}),
        ("submission_accepted", {"player": "bo"}),
    ]
    assert [(event.type, event.data) for event in store.events(match.match_id)] == expected
    assert [(event.type, event.data) for event in store.header_and_events(match.match_id)[1]] == expected


class Interfering:
    """A DynamoDB client (moto's) that cancels the first `times` transactions as DynamoDB would,
    the log's counter item with `code` (its condition failed, or another transaction held it),
    writing nothing; counts every call."""

    def __init__(self, client: Any, times: int, code: str) -> None:
        self.client, self.times, self.code = client, times, code
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        self.calls.append(name)
        return getattr(self.client, name)

    def transact_write_items(self, TransactItems: list[dict[str, Any]]) -> Any:  # noqa: N803 (boto3's name)
        self.calls.append("transact_write_items")
        if self.times == 0:
            return self.client.transact_write_items(TransactItems=TransactItems)
        self.times -= 1
        reasons = []
        for item in TransactItems:
            ((_action, request),) = item.items()
            sk = plain(request.get("Key") or request["Item"])["sk"]
            reasons.append({"Code": self.code if sk == COUNTER else "None"})
        error = {"Code": "TransactionCanceledException", "Message": "Transaction cancelled"}
        raise ClientError({"Error": error, "CancellationReasons": reasons}, "TransactWriteItems")


@pytest.mark.parametrize("code", ["ConditionalCheckFailed", "TransactionConflict"])
def test_a_write_that_lost_the_race_for_its_numbers_is_made_again_and_lands_once(dynamodb: Any, code: str) -> None:
    bench = bench_on("dynamodb", dynamodb)
    assert isinstance(bench.store, DynamoMatchStore)
    match = bench.crates()
    client = Interfering(bench.store.client, times=2, code=code)
    store = DynamoMatchStore(client, bench.store.table)
    current = store.get(match.match_id)
    store.save(current, moved(current), Event("extended", IN_TIME))
    # Read, then three commits: two cancelled (each followed by reading the counter again), one landed
    assert [call for call in client.calls if call != "get_paginator"] == [
        "batch_get_item",
        "transact_write_items",
        "get_item",
        "transact_write_items",
        "get_item",
        "transact_write_items",
    ]
    assert [event.type for event in store.events(match.match_id)] == ["created", "extended"]
    assert store.get(match.match_id).version == current.version + 1


def test_a_write_that_keeps_losing_the_race_gives_up_as_changed_meanwhile_and_writes_nothing(dynamodb: Any) -> None:
    bench = bench_on("dynamodb", dynamodb)
    assert isinstance(bench.store, DynamoMatchStore)
    match = bench.crates()
    client = Interfering(bench.store.client, times=LOG_ATTEMPTS, code="ConditionalCheckFailed")
    store = DynamoMatchStore(client, bench.store.table)
    current = store.get(match.match_id)
    with pytest.raises(Conflict, match="changed meanwhile"):
        store.save(current, moved(current), Event("extended", IN_TIME))
    assert client.calls.count("transact_write_items") == LOG_ATTEMPTS
    assert [event.type for event in store.events(match.match_id)] == ["created"]
    assert store.get(match.match_id).version == current.version
