"""An EC's own acts (service/season/acts.py), as every channel hands them over: the sender proven
by their season secret, the opponent by id or name in any case, each act taken once."""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from season_memory import MemorySeasonStore, SeasonIds, StepClock
from season_support import TWO_MAY_SPEND, domino_ended, two_may_spend

sys.path.append(str(Path(__file__).resolve().parent.parent / "service"))  # the ports' fakes

from fakes import Fakes  # noqa: E402

from game_core.errors import NotFound, Unauthorized
from game_core.season.errors import NotEligible, NotNow
from game_core.season.naming import naming_turn
from game_core.service.season.acts import ec_act, ec_act_stored
from game_core.service.season.lifecycle import apply, create_season


def season(data: dict, *steps) -> tuple[MemorySeasonStore, dict[str, str]]:  # type: ignore[no-untyped-def,type-arg]
    """The season of `data` after `steps`, and each cast member's secret as its creation told them."""
    store = MemorySeasonStore()
    secrets = create_season(store, StepClock(), SeasonIds(), data, season_id="s-1").secrets
    for step in steps:
        apply(store, StepClock(), "s-1", step)
    return store, secrets


def six() -> tuple[MemorySeasonStore, dict[str, str]]:
    """The six-player season once Domino ended: fay is EC, ada (Ada Lovelace) holds 2 ToL."""
    cast = [{"id": p} for p in ["bo", "cy", "di", "ed", "fay"]]
    data = {
        "cast": [{"id": "ada", "name": "Ada Lovelace"}, *cast],
        "episodes": [{"main": {"game": g}} for g in ("domino", "crates", "clubs")],
    }
    return season(data, *domino_ended())


def test_an_ec_names_by_id_or_name_once_with_their_secret() -> None:
    store, secrets = six()
    with pytest.raises(Unauthorized):
        ec_act_stored(store, StepClock(), "s-1", "fay", "wrong", "name", "di")
    with pytest.raises(NotFound, match="zed is not in season s-1"):
        ec_act_stored(store, StepClock(), "s-1", "zed", secrets["fay"], "name", "di")
    with pytest.raises(NotFound, match="'Zoe' is nobody of this season"):
        ec_act_stored(store, StepClock(), "s-1", "fay", secrets["fay"], "name", "Zoe")
    with pytest.raises(NotEligible, match="fay may not name ada"):  # ada holds 2 ToL
        ec_act_stored(store, StepClock(), "s-1", "fay", secrets["fay"], "name", "ada lovelace")
    state = ec_act_stored(store, StepClock(), "s-1", "fay", secrets["fay"], "name", "DI")
    assert state.episodes[0].namings[0].opponent == "di"
    assert ec_act_stored(store, StepClock(), "s-1", "fay", secrets["fay"], "name", "di") == state  # sent again
    assert [e.type for e in store.season_events("s-1")][-2:] == ["named", "death_matches_set"]


def test_naming_while_others_may_still_spend_keeps_the_token_and_names_later() -> None:
    # fay and ed, both EC of episode 2, may spend (season_support.two_may_spend)
    store, secrets = season(TWO_MAY_SPEND, *two_may_spend())
    assert store.season("s-1").state.episodes[1].spend_pending == ["ed", "fay"]
    # ed names while fay may still spend: ed keeps their ToL, nobody is named yet
    state = ec_act_stored(store, StepClock(), "s-1", "ed", secrets["ed"], "name", "bo")
    assert state.episodes[1].spend_pending == ["fay"] and naming_turn(state) is None
    assert state.player("ed").tol == 1
    with pytest.raises(NotNow, match="waiting for fay"):
        ec_act_stored(store, StepClock(), "s-1", "ed", secrets["ed"], "name", "bo")
    # fay keeps hers too: the naming begins, ed first (ed and fay share 5th, ed listed first)
    assert naming_turn(ec_act_stored(store, StepClock(), "s-1", "fay", secrets["fay"], "keep")) == "ed"
    state = ec_act_stored(store, StepClock(), "s-1", "ed", secrets["ed"], "name", "bo")
    assert state.episodes[1].namings[0].opponent == "bo" and naming_turn(state) == "fay"


@dataclass
class OneWait:
    """The season's links as the machine leaves them while it waits on people: one token."""

    tokens: dict[str, str]

    def token(self, season_id: str) -> str | None:
        return self.tokens.get(season_id)


def test_an_act_wakes_the_seasons_machine_at_once() -> None:
    store, secrets = six()
    fakes = Fakes()
    ports = replace(fakes.ports, seasons=store, season_links=OneWait({"s-1": "naming-token"}))
    state = ec_act(ports, "s-1", "fay", secrets["fay"], "name", "di")
    assert state.episodes[0].namings[0].opponent == "di" and fakes.workflow.woken == ["naming-token"]
    with pytest.raises(Unauthorized):  # refused: nothing stored, nobody woken
        ec_act(ports, "s-1", "fay", "wrong", "name", "di")
    assert fakes.workflow.woken == ["naming-token"]
    with pytest.raises(NotFound, match="runs no seasons"):
        ec_act(replace(ports, seasons=None), "s-1", "fay", secrets["fay"], "name", "di")
