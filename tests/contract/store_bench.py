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
from pathlib import Path
from typing import Any

import boto3
from moto import mock_aws

sys.path.append(str(Path(__file__).resolve().parent.parent / "unit" / "service"))  # the fakes

from fakes import T0, Fakes  # noqa: E402

from game_core.aws.store import DynamoMatchStore  # noqa: E402
from game_core.match.model import Match, MatchRequest  # noqa: E402
from game_core.service.matches import create_match  # noqa: E402
from game_core.service.ports import MatchStore, Ports  # noqa: E402
from local_stack.stack import REGION, create_match_table  # noqa: E402

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

    def crates(self, garnets: int = 10, **request: Any) -> Match:
        """A Pushing Crates match of ada and bo, each with `garnets`; its Pregame (phase 1) open
        for an hour from T0."""
        players = [{"id": p, "garnets": garnets, "email": f"{p}@example.com"} for p in ("ada", "bo")]
        return self.create({"game": "crates", "players": players} | request)

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
