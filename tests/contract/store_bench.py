"""The store's contract runs against DynamoDB (the adapter on moto, the table as template.yaml
deploys it) and against the service tests' in-memory store, which must agree with it rule by rule.
(Not a conftest.py: the integration tests import tests/conftest.py as `conftest`, and a second one
would take its name.)"""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

sys.path.append(str(Path(__file__).resolve().parent.parent / "unit" / "service"))  # the fakes

from fakes import T0, Fakes  # noqa: E402

from game_core.aws.store import DynamoMatchStore  # noqa: E402
from game_core.match.engine import Accepted  # noqa: E402
from game_core.match.model import Match, MatchRequest, PhaseRecord  # noqa: E402
from game_core.service.matches.lifecycle import create_match  # noqa: E402
from game_core.service.matches.sheets import Sheet
from game_core.service.ports import Completion, Event, MatchStore, Ports  # noqa: E402
from local_stack.aws.stack import REGION  # noqa: E402
from local_stack.aws.template import create_match_table  # noqa: E402

__all__ = ["T0", "Bench", "bench_on", "moto_dynamodb"]  # T0: where each bench's clock starts


@dataclass
class Bench:
    """A store under contract, and the fakes of the other ports to create matches with."""

    store: MatchStore
    fakes: Fakes

    @property
    def ports(self) -> Ports:
        return replace(self.fakes.ports, store=self.store)

    def create(self, request: dict[str, Any]) -> Match:
        created = create_match(self.ports, MatchRequest.model_validate({"phase_seconds": 3600, "seed": 7} | request))
        return self.store.get(created["match_id"])

    def crates(self, garnets: int = 10, players: tuple[str, ...] = ("ada", "bo"), **request: Any) -> Match:
        """A Pushing Crates match of ada and bo (or `players`), each with `garnets`; its Pregame
        (phase 1) open for an hour from T0."""
        entries = [{"id": p, "garnets": garnets, "email": f"{p}@example.com"} for p in players]
        return self.create({"game": "crates", "players": entries} | request)

    def another_store(self) -> MatchStore:
        """A second writer on the same data (another Lambda instance: a store of its own on the
        same table; in memory, the same store)."""
        if isinstance(self.store, DynamoMatchStore):
            return DynamoMatchStore(self.store.client, self.store.table)
        return self.store

    def clubs(self, garnets: int = 10) -> Match:
        """A Puzzler's Clubs match of ada, bo and cy, each with a guest (ada's: ann), each player
        holding `garnets`, each guest an empty purse."""
        guests = {"ada": "ann", "bo": "ben", "cy": "cat"}
        players = [{"id": p, "garnets": garnets, "guests": [{"id": g}]} for p, g in guests.items()]
        return self.create({"game": "clubs", "players": players})


@contextmanager
def moto_dynamodb() -> Iterator[Any]:
    """DynamoDB on moto, its client made once (making one is the slow part)."""
    with mock_aws():
        yield boto3.client("dynamodb", region_name=REGION)


def bench_on(kind: str, dynamodb: Any) -> Bench:
    """A bench on a new table of `dynamodb` ("dynamodb"), or on a new MemoryStore ("memory")."""
    if kind == "memory":
        fakes = Fakes()
        return Bench(fakes.store, fakes)
    table = f"matches-{uuid.uuid4().hex[:12]}"
    create_match_table(dynamodb, table)
    return Bench(DynamoMatchStore(dynamodb, table), Fakes())


def each_store(request: pytest.FixtureRequest, dynamodb: Any) -> Bench:
    """The `bench` fixture (`bench = pytest.fixture(params=STORES)(each_store)` in a module, beside
    `dynamodb = pytest.fixture(scope="module")(moto_client)`): each test on both stores; on
    DynamoDB, a table of its own."""
    return bench_on(request.param, dynamodb)


STORES = ["dynamodb", "memory"]


def moto_client() -> Iterator[Any]:
    """DynamoDB on moto for a module's tests (`moto_dynamodb`)."""
    with moto_dynamodb() as client:
        yield client


IN_TIME = T0 + timedelta(minutes=1)
"""Within the Pregame, which runs from T0 for an hour."""
TOO_LATE = T0 + timedelta(hours=2)


def moved(match: Match, **clock: Any) -> Match:
    """The match as the next store of it leaves it: its version one higher, its clock changed."""
    assert match.phase is not None
    phase = match.phase.model_copy(update=clock)
    return match.model_copy(update={"version": match.version + 1, "phase": phase})


def submit(
    store: MatchStore,
    match: Match,
    player: str,
    cost: int = 0,
    *,
    at: datetime = IN_TIME,
    seen: Sheet | None | str = "as stored",
    delivery: str | None = None,
    completion: Completion | None = None,
    kind: str = "multipliers",
) -> None:
    """The player's submission of `kind` spending `cost`, replacing their sheet `seen` (by default
    the one stored now)."""
    if seen == "as stored":
        seen = store.submission_view(match.match_id, player, None).sheet
    assert not isinstance(seen, str)
    accepted = Accepted(kind, {"cost": cost}, cost)
    reply = (delivery, {"accepted": True, "cost": cost}) if delivery is not None else None
    event = Event("submission_accepted", at, {"player": player})
    store.put_submission(match, player, accepted, event, seen, reply, completion)


def garnets(store: MatchStore, match: Match, participant: str) -> tuple[int, int]:
    """(balance, available) of the participant's holding, as a submission reads it."""
    view = store.submission_view(match.match_id, participant, None)
    return view.balance, view.available


def revision(store: MatchStore, match: Match, player: str) -> int | None:
    sheet = store.submission_view(match.match_id, player, None).sheet
    return sheet.revision if sheet else None


def resolved(match: Match) -> tuple[Match, PhaseRecord]:
    """The match with its Pregame resolved (phase 2 open) and the Pregame's record."""
    assert match.phase is not None
    after = moved(match, number=2, name="Round 1", deadline=match.phase.deadline + timedelta(hours=1))
    record = PhaseRecord(
        number=1, name="Pregame", submissions={}, elapsed_seconds=3600, extension_seconds=0, timed_out=True
    )
    return after.model_copy(update={"phases_resolved": 1}), record


def cancel(bench: Bench, match: Match) -> None:
    bench.store.save(match, moved(match).model_copy(update={"status": "cancelled"}), Event("cancelled", T0))
