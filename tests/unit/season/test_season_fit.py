"""A season whose next match's game cannot seat the players left, and what the season waits on
between episodes (RULINGS.md, "Seasons": "A game whose player limits exclude an episode's
projected count is refused when the season is created, naming the episode"; "Clubs' guests are
named by the host when its episode starts ... the episode waits for them").

The creation check (test_season_settings.py) projects every count a season may see; a season
stored before that check, or a count the projection did not foresee, must still never fail
obscurely mid-season: the season waits for the host, who is told once what, why and what to do."""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from season_memory import MemoryLinks, MemorySeasonStore
from season_support import duel, first_episode, played, result, settings, six_player_steps

sys.path.append(str(Path(__file__).resolve().parent.parent / "service"))  # the ports' fakes

from fakes import Fakes  # noqa: E402

from game_core.match.clock import iso
from game_core.season.death_match import death_match_ended, next_step, start_death_match, start_finals
from game_core.season.episode import main_match_ended, new_season, spend_tol, start_episode
from game_core.season.errors import NotNow, SettingsRefused
from game_core.season.guests import name_guests
from game_core.season.naming import name_opponent
from game_core.season.settings import SeasonSettings, read_settings
from game_core.season.standing import standing
from game_core.season.waiting import Waiting, as_json, waits_now
from game_core.service.ports import Ports
from game_core.service.season import stages
from game_core.service.season.commands import Season, run_season_command
from game_core.service.season.lifecycle import Step, apply
from game_core.service.season.machine import advance, ensure_match, season_match_id

SIX = ["ada", "bo", "cy", "di", "ed", "fay"]
UNCHECKED = SeasonSettings.model_validate(
    {
        "cast": [{"id": p, "email": f"{p}@example.com"} for p in SIX],
        "episodes": [{"main": {"game": game}} for game in ("domino", "crates", "clubs")],
        "tol_spending": True,
        "seed": 7,
    }
)
"""Issue 31's season with ToL spending, as a season stored before its settings were checked for
every count spending may leave (read_settings now refuses it)."""
FOUR_LEFT = ["ada", "bo", "cy", "fay"]
WHY = "episode 3 (clubs) would have 4 players; clubs takes 3"


def to_four_left(main_2: str = "m-2") -> list[Step]:
    """Domino among six won by fay (2 ToL), ed last names di and loses; Crates among five: ToL to
    bo, cy, ada (the top 3), EC di and fay (the bottom 2). fay spends a ToL: every other player is
    an EC or a winner, so nobody replaces her (RULINGS: "the next-lowest player ... who is not
    already an EC, safe, or a winner"); di names ada among the ToL holders (the rule lapses) and
    loses. One Death Match instead of two: ada, bo, cy, fay, 4, are left for Clubs (3 only)."""
    domino = result(["fay", "ada", "bo", "cy", "di", "ed"], tol={"fay": 2}, ec=["ed"])
    crates = result(["bo", "cy", "ada", "fay", "di"], tol={"bo": 1, "cy": 1, "ada": 1}, ec=["di", "fay"])
    return [
        *first_episode(domino, "ed", "di")[:-1],
        lambda _se, s: start_episode(s, 2, main_2),
        lambda se, s: main_match_ended(s, se, main_2, crates),
        lambda _se, s: spend_tol(s, "fay"),
        lambda _se, s: name_opponent(s, "di", "ada"),
        lambda _se, s: start_death_match(s, "di", "m-2-dm"),
        lambda _se, s: death_match_ended(s, "m-2-dm", duel("ada", "di")),
    ]


def test_an_episode_whose_game_cannot_seat_those_left_waits_for_the_host() -> None:
    state = played(UNCHECKED, *to_four_left())
    assert state.left == FOUR_LEFT
    coming = next_step(state, UNCHECKED)
    assert (coming.kind, coming.number, coming.players, coming.why) == ("unplayable", 3, FOUR_LEFT, WHY)
    (wait,) = waits_now(UNCHECKED, state)
    assert wait == Waiting("unplayable", among=tuple(FOUR_LEFT), episode=3, why=WHY)
    assert as_json(wait, "s-test")["says"] == (
        f"the host: {WHY} (a tie or a spent ToL kept more in than the settings projected). The season cannot"
        " go on as it was set: cancel it (match-host season cancel s-test) and play the rest by hand; recover"
        " would find the same"
    )
    # Its guests are not taken: the episode cannot begin
    with pytest.raises(NotNow, match=re.escape(f"{WHY}: it cannot begin, so it takes no guests")):
        name_guests(UNCHECKED, state, 3, {p: [{"id": f"g-{p}"}] for p in FOUR_LEFT})


def test_finals_whose_game_cannot_seat_those_left_wait_for_the_host() -> None:
    # Two Domino episodes among four, then the Finals (Abstrac deal: 2 players only). Domino among
    # 4: ada and cy tie at the top ("players tied at the top win 1 ToL each"), di last names bo
    # (the only one holding none) and loses. Domino among ada, bo, cy: bo wins 2 ToL, ada last is
    # EC and spends her ToL; cy, next-lowest and no winner, becomes EC and spends hers; nobody is
    # left to replace cy (ada safe, bo the winner): no EC, no Death Match. The episodes are used
    # up with 3 left
    chosen = SeasonSettings.model_validate(
        {"cast": [{"id": p} for p in ("ada", "bo", "cy", "di")], "episodes": [{"main": {"game": "domino"}}] * 2}
        | {"tol_spending": True, "seed": 7}
    )
    first = result(
        ["ada", "cy", "bo", "di"], tol={"ada": 1, "cy": 1}, ec=["di"], places={"ada": 1, "cy": 1, "bo": 3, "di": 4}
    )
    second = result(["bo", "cy", "ada"], tol={"bo": 2}, ec=["ada"])
    state = played(
        chosen,
        *first_episode(first, "di", "bo"),
        lambda se, s: main_match_ended(s, se, "m-2", second),
        lambda _se, s: spend_tol(s, "ada"),
        lambda _se, s: spend_tol(s, "cy"),
    )
    assert (state.episodes[1].safe, state.episodes[1].stage, state.left) == (["ada", "cy"], "done", ["ada", "bo", "cy"])
    why = "the Finals (abstrac deal) would have 3 players; abstrac takes 2"
    coming = next_step(state, chosen)
    assert (coming.kind, coming.number, coming.players, coming.why) == ("unplayable", 0, ["ada", "bo", "cy"], why)
    with pytest.raises(NotNow, match="not ready for its Finals"):
        start_finals(state, chosen, "m-fin")
    # Created now, this season is refused: Domino among 3 may keep everyone in, 2 to 3 for the final
    with pytest.raises(SettingsRefused) as refused:
        read_settings(chosen.model_dump(exclude_none=True))
    assert [r.text for r in refused.value.reasons][0].startswith("final (abstrac deal) may have 2 to 3 players")


def test_the_hosts_guests_are_what_the_season_waits_on_before_a_clubs_episode() -> None:
    # The six-player season after Crates: ada, bo and ed are left for Clubs, whose teams are a
    # player and 1 guest each; the host names them, with no deadline
    chosen = settings("domino", "crates", "clubs")
    state = played(chosen, *six_player_steps()[:13])
    (wait,) = waits_now(chosen, state)
    assert wait == Waiting("guests", among=("ada", "bo", "ed"), episode=3, guests_each=1)
    says = (
        "the host to name 1 guest for each of ada, bo, ed before episode 3 begins: match-host season guests"
        " s-test GUESTS.json (no deadline: the episode waits for them)"
    )
    assert standing(chosen, state)["waiting"] == [
        {"kind": "guests", "who": [], "match_id": None, "among": ["ada", "bo", "ed"], "episode": 3}
        | {"guests_each": 1, "says": says}
    ]
    named = name_guests(chosen, state, 3, {"ada": ["fay"], "bo": ["di"], "ed": ["cy"]}).state
    assert waits_now(chosen, named) == []  # nothing waits: the machine begins the episode


def memory_ports() -> tuple[Fakes, Ports]:
    fakes = Fakes()
    return fakes, replace(fakes.ports, seasons=MemorySeasonStore(), season_links=MemoryLinks())


def host(ports: Ports, season_id: str, **command: object) -> dict:  # type: ignore[type-arg]
    return run_season_command(ports, Season.model_validate({"command": "season", "season_id": season_id, **command}))


def test_the_status_names_the_guests_the_host_owes() -> None:
    _fakes, ports = memory_ports()
    cast = [{"id": p, "email": f"{p}@example.com"} for p in ("ada", "bo", "cy")]
    host(ports, "s-clubs", action="create", season={"cast": cast, "episodes": [{"main": {"game": "clubs"}}]})
    (wait,) = host(ports, "s-clubs", action="status")["waiting"]
    assert (wait["kind"], wait["among"], wait["episode"], wait["guests_each"]) == ("guests", ["ada", "bo", "cy"], 1, 1)
    assert wait["says"].startswith("the host to name 1 guest for each of ada, bo, cy before episode 1 begins")


def test_the_machine_waits_for_the_host_and_alerts_once_in_words() -> None:
    fakes, ports = memory_ports()
    assert ports.seasons is not None
    state = new_season(UNCHECKED, "s-fit").state.model_copy(update={"opened_at": fakes.clock.now()})
    ports.seasons.create_season(UNCHECKED, state, [])
    main_2 = season_match_id("s-fit", "e2-main")
    steps = to_four_left(main_2)
    for step in steps[:6]:  # up to episode 2's start: its Main Match (Crates among 5) is created
        apply(ports.seasons, fakes.clock, "s-fit", step)
    ensure_match(ports, ports.seasons.season("s-fit"), main_2, "token-2")
    for step in steps[6:]:
        apply(ports.seasons, fakes.clock, "s-fit", step)
    version = ports.seasons.season("s-fit").state.version

    where = advance(ports, "s-fit")
    # Nothing begins (no episode 3, no match): the season waits for the host, who is told once
    assert where["stage"] == stages.HOST and ports.seasons.season("s-fit").state.version == version
    (alert,) = [a for a in fakes.notifier.alerts if "cannot begin" in a[1]]
    assert alert[:2] == (main_2, f"[s-fit] episode 3 cannot begin: {WHY}")
    assert (
        alert[2]["what_to_do"].startswith(f"the host: {WHY}")
        and "match-host season cancel s-fit" in alert[2]["what_to_do"]
    )
    advance(ports, "s-fit")  # the wait's daily look again: no second alert
    assert len([a for a in fakes.notifier.alerts if "cannot begin" in a[1]]) == 1
    (wait,) = host(ports, "s-fit", action="status")["waiting"]
    assert (wait["kind"], wait["episode"], wait["among"]) == ("unplayable", 3, FOUR_LEFT)
    with pytest.raises(NotNow, match=re.escape(f"nothing the host decides (it waits on: unplayable, the host: {WHY}")):
        host(ports, "s-fit", action="decide", player="ada")
    assert host(ports, "s-fit", action="cancel")["stage"] == "cancelled"
    assert advance(ports, "s-fit")["stage"] == stages.SEASON_CANCELLED


def test_the_status_gives_a_namings_deadlines() -> None:
    # Domino among ada, bo, cy: ada wins 2 ToL, cy last is EC and may name only bo (no EC, no
    # ToL). RULINGS: "Naming takes at most 24 hours ... Silence: the host names; if the host has
    # not either by 24 hours more, a lot": 24 and 48 hours after the turn opened
    fakes, ports = memory_ports()
    assert ports.seasons is not None
    three = {"cast": [{"id": p} for p in ("ada", "bo", "cy")], "episodes": [{"main": {"game": "domino"}}]}
    host(ports, "s-three", action="create", season=three)
    domino = result(["ada", "bo", "cy"], tol={"ada": 2}, ec=["cy"])
    apply(ports.seasons, fakes.clock, "s-three", lambda _se, s: start_episode(s, 1, "m-1"))
    apply(ports.seasons, fakes.clock, "s-three", lambda se, s: main_match_ended(s, se, "m-1", domino))
    status = host(ports, "s-three", action="status")
    (wait,) = status["waiting"]
    opened = datetime.fromisoformat(status["opened_at"])
    assert (wait["kind"], wait["who"], wait["among"]) == ("naming", ["cy"], ["bo"])
    assert (wait["until"], wait["host_until"]) == (iso(opened + timedelta(hours=24)), iso(opened + timedelta(hours=48)))
