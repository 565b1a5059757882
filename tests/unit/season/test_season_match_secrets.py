"""The secrets of a season's matches, which its step creates and starts itself (nobody sees the
step's reply): each guest of a Clubs episode gets a secret once, told to the host when they are
named, and the step seats them with it (service/season/guests.py); a cast member with a webhook
gets one signing secret at the season's creation, and every season match signs with it
(service/season/hooks.py)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest
from season_memory import MemoryLinks, MemorySeasonStore
from season_support import result

sys.path.append(str(Path(__file__).resolve().parent.parent / "service"))  # the ports' fakes

from fakes import Fakes  # noqa: E402
from memory_hooks import MemoryHooks  # noqa: E402

from game_core.errors import Malformed, NotFound
from game_core.match.model import secret_hash
from game_core.season.episode import main_match_ended
from game_core.service.ports import Ports
from game_core.service.season.commands import Season, run_season_command
from game_core.service.season.lifecycle import apply, create_season
from game_core.service.season.machine import advance, ensure_match, season_match_id

CLUBS_FIRST = {
    "cast": [{"id": p, "email": f"{p}@example.com"} for p in ("ada", "bo", "cy")],
    "episodes": [{"main": {"game": "clubs"}}],
}
GUESTS = {
    "ada": [{"id": "gwen", "email": "gwen@example.com"}],
    "bo": [{"id": "hal", "email": "hal@example.com"}],
    "cy": [{"id": "ivy"}],
}


def clubs_season(fakes: Fakes) -> tuple[Ports, dict[str, str]]:
    ports = replace(fakes.ports, seasons=MemorySeasonStore(), season_links=MemoryLinks())
    assert ports.seasons is not None
    cast = create_season(ports.seasons, ports.clock, ports.ids, CLUBS_FIRST, season_id="s-clubs").secrets
    return ports, cast


def host(ports: Ports, **command: object) -> dict:  # type: ignore[type-arg]
    return run_season_command(ports, Season.model_validate({"command": "season", "season_id": "s-clubs", **command}))


def test_each_guest_is_told_their_secret_once_and_the_step_seats_them_with_it() -> None:
    fakes = Fakes()
    ports, cast = clubs_season(fakes)
    main = season_match_id("s-clubs", "e1-main")
    named = host(ports, action="guests", guests=GUESTS)
    # Three guests new to the season: three secrets, each with its link to the Main Match's page
    assert named["match_id"] == main and sorted(named["secrets"]) == ["gwen", "hal", "ivy"]
    assert named["links"]["gwen"] == f"/play/{main}#{named['secrets']['gwen']}"
    assert host(ports, action="guests", guests=GUESTS)["secrets"] == {}  # named again: told nothing new

    advance(ports, "s-clubs")  # the episode begins: its Main Match's id recorded
    assert ports.seasons is not None
    record = ports.seasons.season("s-clubs")
    drawn = fakes.ids.issued
    match = ensure_match(ports, record, main, "token-1")
    again = ensure_match(ports, ports.seasons.season("s-clubs"), main, "token-2")  # the step retried
    assert fakes.ids.issued == drawn, "the step drew a secret nobody is told"
    held = {p.id: p.secret_hash for p in match.players}
    told = {**cast, **named["secrets"]}
    assert held == {who: secret_hash(told[who]) for who in ("ada", "gwen", "bo", "hal", "cy", "ivy")}
    assert {p.id: p.secret_hash for p in again.players} == held


def test_a_guest_named_in_anothers_place_loses_their_way_in() -> None:
    ports, _ = clubs_season(Fakes())
    first = host(ports, action="guests", guests=GUESTS)
    second = host(ports, action="guests", guests=GUESTS | {"cy": [{"id": "jo"}]})
    assert list(second["secrets"]) == ["jo"] and second["guests"]["cy"] == ["jo"]
    assert ports.seasons is not None
    hashes = ports.seasons.season("s-clubs").state.secret_hashes
    assert "ivy" not in hashes and hashes["gwen"] == secret_hash(first["secrets"]["gwen"])


DOMINO_WITH_A_HOOK = {
    "cast": [{"id": "ada", "webhook": "https://bot.example.com/ada"}, {"id": "bo"}, {"id": "cy"}],
    "episodes": [{"main": {"game": "domino"}}],
}


def test_a_cast_members_webhook_signs_every_season_match_with_the_secret_told_at_creation() -> None:
    fakes, hooks = Fakes(), MemoryHooks()
    ports = replace(fakes.ports, seasons=MemorySeasonStore(), season_links=MemoryLinks(), hooks=hooks)
    created = host(ports, action="create", season=DOMINO_WITH_A_HOOK)
    # Only ada has a webhook: one signing secret, hers, told once with the season secrets
    assert list(created["webhook_secrets"]) == ["ada"] and sorted(created["secrets"]) == ["ada", "bo", "cy"]
    signing = created["webhook_secrets"]["ada"]
    assert signing.startswith("whsec_") and signing not in created["secrets"].values()

    advance(ports, "s-clubs")
    main = season_match_id("s-clubs", "e1-main")
    assert ports.seasons is not None
    match = ensure_match(ports, ports.seasons.season("s-clubs"), main, "token-1")
    ensure_match(ports, ports.seasons.season("s-clubs"), main, "token-2")  # the step retried
    assert match.webhooks == ("ada",)
    assert hooks.kept[(main, "ada")].secret == signing  # still the one told, after the retry
    # Her deliveries (the opening notice) are signed with it: every one queued is hers or none
    assert {d.target for d in hooks.queued} == {"ada"}


def test_a_season_whose_webhook_is_refused_is_not_created() -> None:
    fakes = Fakes()
    ports = replace(fakes.ports, seasons=MemorySeasonStore(), season_links=MemoryLinks(), hooks=MemoryHooks())
    private = {"id": "ada", "webhook": "https://internal.example/ada"}  # resolves to a private address
    refused = DOMINO_WITH_A_HOOK | {"cast": [private, {"id": "bo"}, {"id": "cy"}]}
    with pytest.raises(Malformed):
        host(ports, action="create", season=refused)
    assert ports.seasons is not None
    with pytest.raises(NotFound):
        ports.seasons.season("s-clubs")


def test_the_host_is_alerted_once_when_an_ecs_naming_turn_opens_with_both_deadlines() -> None:
    fakes = Fakes()
    ports = replace(fakes.ports, seasons=MemorySeasonStore(), season_links=MemoryLinks())
    host(ports, action="create", season={**DOMINO_WITH_A_HOOK, "cast": [{"id": p} for p in ("ada", "bo", "cy")]})
    advance(ports, "s-clubs")
    main = season_match_id("s-clubs", "e1-main")
    assert ports.seasons is not None
    ensure_match(ports, ports.seasons.season("s-clubs"), main, "token-1")
    assert fakes.notifier.alerts == []  # no naming turn yet: the Main Match runs
    # Domino ends (RULINGS: first 2 ToL, last EC): ada holds 2 ToL, cy is EC and may name only bo
    ended = result(["ada", "bo", "cy"], tol={"ada": 2}, ec=["cy"])
    apply(ports.seasons, ports.clock, "s-clubs", lambda se, st: main_match_ended(st, se, main, ended))
    advance(ports, "s-clubs")
    advance(ports, "s-clubs")  # the step retried: no second alert
    # The turn opened at the fakes' clock T0 (2026-12-01T12:00Z, tests/unit/service/fakes.py):
    # cy's 24 hours (naming_hours) end 2026-12-02T12:00Z, the host's 24 more 2026-12-03T12:00Z
    [(match_id, subject, body)] = fakes.notifier.alerts
    assert match_id == main and body["ec"] == "cy" and body["among"] == ["bo"]
    assert (body["ec_deadline"], body["host_deadline"]) == ("2026-12-02T12:00:00Z", "2026-12-03T12:00:00Z")
    assert subject == "[s-clubs] cy names an opponent by 2026-12-02T12:00:00Z; then you may, until 2026-12-03T12:00:00Z"
