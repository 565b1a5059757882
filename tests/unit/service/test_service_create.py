"""create_match, match_status and export_record on the in-memory fakes (Pushing Crates)."""

from __future__ import annotations

import pytest
from conftest import texts
from crates_driver import HOUR, Table, request
from fakes import T0, Fakes, SequentialIds
from pydantic import ValidationError

from game_core.errors import Illegal, NotFound, validation_reasons
from game_core.match.model import MatchRequest
from game_core.service.matches import phases
from game_core.service.matches.lifecycle import create_match, export_record, match_status

MID = "m-000000000001"


def test_create_names_the_match_hashes_the_secrets_and_starts_the_execution_under_the_match_id() -> None:
    # Secrets with published SHA-256 values (FIPS 180-2's "abc", and "hello").
    fakes = Fakes(ids=SequentialIds(secrets=["abc", "hello"]))
    created = create_match(fakes.ports, request(("ada", "bo"), seed=None))

    assert created["match_id"] == MID
    assert created["secrets"] == {"ada": "abc", "bo": "hello"}
    assert created["execution"] == f"arn:aws:states:us-east-1:123456789012:execution:genius-crates:{MID}"
    assert fakes.workflow.started == [MID]
    match = fakes.store.get(MID)
    assert [(p.id, p.secret_hash) for p in match.players] == [
        ("ada", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("bo", "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"),
    ]
    stored = fakes.store.stored_match_json(MID)
    assert '"abc"' not in stored and "hello" not in stored  # only the hashes are kept
    assert match.seed == 7  # no seed in the request: the Ids' seed
    # The Pregame opens at creation (12:00) for phase_seconds = 1 h: until 13:00.
    assert created["open"] == {
        "phase": "Pregame",
        "number": 1,
        "deadline": "2026-12-01T13:00:00Z",
        "paused": False,
        "accepts": ["multipliers"],
        "actors": ["ada", "bo"],
        "owes": {"ada": ["multipliers"], "bo": ["multipliers"]},  # Crates' pregame waits for multipliers
        "waiting_for": ["ada", "bo"],
        "ready": [],
    }
    [event] = fakes.store.events(MID)
    assert (event.type, event.at, event.data) == ("created", T0, {"game": "crates", "players": ["ada", "bo"]})


def test_a_seed_in_the_request_wins_over_the_ids() -> None:
    fakes = Fakes()
    create_match(fakes.ports, request(seed=99))
    assert fakes.store.get(MID).seed == 99


# (garnets asked for ada in a first match, or None: ada not in it; asked in the second match;
#  ada's starting garnets in the second match, and her stored balance after it)
STARTING = [
    pytest.param(None, 5, 5, id="never seen: the request's starting balance"),
    pytest.param(None, None, 0, id="never seen, none asked: 0"),
    pytest.param(2, 9, 2, id="known with 2: keeps 2, the 9 asked is ignored"),
    pytest.param(0, 4, 0, id="known with 0: keeps 0"),
]


@pytest.mark.parametrize(("first", "second", "expected"), STARTING)
def test_starting_garnets_for_new_and_known_players(first: int | None, second: int | None, expected: int) -> None:
    fakes = Fakes()
    if first is not None:
        create_match(fakes.ports, request(("ada", "bo"), garnets={"ada": first}))
    created = create_match(fakes.ports, request(("ada", "cy"), garnets={} if second is None else {"ada": second}))
    match = fakes.store.get(created["match_id"])
    assert match.starting_garnets == {"ada": expected, "cy": 0}
    assert fakes.store.garnets("ada") == (expected, expected)  # (balance, available)


def test_the_opening_notices_are_one_public_and_one_per_player_from_their_own_view() -> None:
    fakes = Fakes()
    fakes.mailer.domain = ""  # a deployment without mail: SNS mails each address
    table = Table.open(fakes, players=("ada", "bo", "cy"))
    notifier = table.fakes.notifier

    # Subscribed before the first notice, so a subscriber hears the match begin.
    assert notifier.calls == ["subscribe", "publish", "publish", "publish", "publish"]
    assert notifier.subscribed == [MID]
    notices = notifier.notices(MID)
    assert [n.recipient for n in notices] == [None, "ada", "bo", "cy"]
    assert {n.subject for n in notices} == {f"[{MID}] Pushing Crates: the match begins"}
    public = notices[0].body
    assert set(public["view"]) == {"public"} and "you" not in public
    assert public["view"]["public"]["phase"] == "Pregame"
    assert public["open"]["deadline"] == "2026-12-01T13:00:00Z"
    for notice in notices[1:]:
        assert notice.body["you"] == notice.recipient
        private = notice.body["view"]["private"]
        # Nothing submitted or resolved yet: no multipliers, no rounds, every ground left.
        assert private["multipliers"] == {"pregame": None, "round_1": None, "standing": None}
        assert private["rounds"] == [] and private["total"] == 0
        assert private["grounds_left"] == {"rubber": 1, "ice": 2}


def test_players_whose_subscription_awaits_confirmation_are_listed() -> None:
    fakes = Fakes()
    fakes.mailer.domain = ""  # a deployment without mail: SNS mails each address
    fakes.notifier.unsubscribed = ["bo"]
    assert create_match(fakes.ports, request())["unsubscribed"] == ["bo"]
    fakes.notifier.unsubscribed = []
    assert "unsubscribed" not in create_match(fakes.ports, request())


def test_with_mail_of_its_own_no_address_is_subscribed_to_sns() -> None:
    fakes = Fakes()
    create_match(fakes.ports, request())
    assert fakes.notifier.subscribed == [] and "subscribe" not in fakes.notifier.calls


REFUSED = [
    pytest.param(("ada", "ada"), "player ids must be unique", id="twice the same id"),
    pytest.param(("ada",), "Pushing Crates takes 2 to 16 players, not 1", id="too few"),
    pytest.param(tuple(f"p{i}" for i in range(17)), "Pushing Crates takes 2 to 16 players, not 17", id="too many"),
]


@pytest.mark.parametrize(("players", "reason"), REFUSED)
def test_a_refused_match_stores_starts_and_tells_nothing(players: tuple[str, ...], reason: str) -> None:
    fakes = Fakes()
    with pytest.raises(Illegal) as refused:
        create_match(fakes.ports, request(players))
    assert texts(refused.value.reasons) == [reason]
    with pytest.raises(NotFound):
        fakes.store.get(MID)
    assert fakes.workflow.started == [] and fakes.notifier.calls == []


def _with_email(email: str, confirm: bool = False) -> MatchRequest:
    return MatchRequest.model_validate(
        {"game": "crates", "players": [{"id": "ada", "email": email, "confirm_contact": confirm}, {"id": "bo"}]}
    )


# (the email of the second match naming "ada", whether the host confirms; refused?, ada's contact after)
CONTACTS = [
    pytest.param("Ada@Example.com ", False, False, "ada@example.com", id="same address, other case: the same"),
    pytest.param("eve@example.com", False, True, "ada@example.com", id="another address: refused"),
    pytest.param("eve@example.com", True, False, "eve@example.com", id="another address, confirmed: changed"),
]


@pytest.mark.parametrize(("email", "confirm", "refused", "after"), CONTACTS)
def test_a_known_id_keeps_its_contact_unless_the_host_confirms(
    email: str, confirm: bool, refused: bool, after: str
) -> None:
    fakes = Fakes()
    create_match(fakes.ports, _with_email("ada@example.com"))
    if refused:
        with pytest.raises(Illegal) as error:
            create_match(fakes.ports, _with_email(email, confirm))
        assert "'ada' is already registered with another contact" in error.value.reasons[0].text
        assert fakes.workflow.started == [MID]  # the second match was not started
    else:
        create_match(fakes.ports, _with_email(email, confirm))
    assert fakes.store.contacts(("ada", "bo")) == {"ada": after, "bo": ""}


def test_status_says_who_submitted_never_what() -> None:
    table = Table.open(players=("ada", "bo", "cy"))
    table.submit("ada", "Pregame", "multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]})
    table.fakes.clock.advance(60)

    status = match_status(table.ports, MID)
    assert status == {
        "match_id": MID,
        "game": "crates",
        "status": "running",
        "phases_resolved": 0,
        "open": {
            "phase": "Pregame",
            "number": 1,
            "deadline": "2026-12-01T13:00:00Z",
            "paused": False,
            "accepts": ["multipliers"],
            "actors": ["ada", "bo", "cy"],
            # Crates' pregame waits for everyone's multipliers; ada's completed her (header's done set)
            "owes": {"ada": ["multipliers"], "bo": ["multipliers"], "cy": ["multipliers"]},
            "waiting_for": ["bo", "cy"],
            "ready": [],  # nobody has voted the phase ready
        },
        "submitted": ["ada"],
        "waiting_for": ["bo", "cy"],
        "still_owed": {"bo": ["multipliers"], "cy": ["multipliers"]},
        "checked_at": "2026-12-01T12:01:00Z",
    }


def test_export_gives_the_phase_records_in_order() -> None:
    table = Table.open(garnets={"ada": 4})
    multipliers = {"multipliers": [2, 1, 1, 0, -1, -1]}
    table.submit("ada", "Pregame", "multipliers", multipliers)
    table.resolve_at_deadline()  # phase 1 at 13:00 (1 h after it opened)
    table.fakes.clock.advance(600)
    table.turn("bo", "Round 1", [{"crate": "ada", "direction": "right"}])
    table.resolve_at_deadline()  # phase 2 at 14:00, 10 min of it passed with bo's turn in

    record = export_record(table.ports, MID)
    assert record.starting_garnets == {"ada": 4, "bo": 0}
    assert [(p.number, p.name, p.elapsed_seconds, p.timed_out) for p in record.phases] == [
        (1, "Pregame", HOUR, True),
        (2, "Round 1", HOUR, True),
    ]
    assert record.phases[0].submissions == {"ada": {"multipliers": multipliers}}
    assert record.phases[1].submissions == {
        "bo": {"round": {"pushes": [{"crate": "ada", "direction": "right"}], "ground": "stone"}}
    }
    assert phases.progress(table.ports, table.match())["phase"] == "Round 2"


def _entries(*players: dict) -> dict:
    return {"game": "crates", "players": list(players)}


# Each request is refused naming what is wrong (pydantic's reasons, as every channel shows them)
REFUSED_SETTINGS = [
    pytest.param(
        _entries({"id": "ada", "zone": "Paris"}, {"id": "bo"}),
        "players.0.zone: 'Paris' is not a time zone; did you mean Europe/Paris?",
        id="a city is no zone: the zone it is in is suggested",
    ),
    pytest.param(
        _entries({"id": "ada", "name": "Bo"}, {"id": "bo"}),
        "'bo' would name both 'ada' and 'bo'",
        id="a name that is another's id",
    ),
    pytest.param(
        _entries({"id": "ada", "name": "Alex"}, {"id": "bo", "name": "ALEX"}),
        "'alex' would name both 'ada' and 'bo'",
        id="two names alike but for case",
    ),
]


@pytest.mark.parametrize(("settings", "said"), REFUSED_SETTINGS)
def test_a_settings_file_is_refused_for_an_unknown_zone_or_a_name_naming_two(settings: dict, said: str) -> None:
    with pytest.raises(ValidationError) as refused:
        MatchRequest.model_validate(settings)
    assert any(said in reason.text for reason in validation_reasons(refused.value, "settings"))


def test_a_zone_is_kept_in_its_own_spelling_and_a_name_may_be_its_own_id() -> None:
    fakes = Fakes()
    settings = _entries({"id": "ada", "name": "ADA", "zone": "europe/paris"}, {"id": "bo"})
    create_match(fakes.ports, MatchRequest.model_validate(settings))
    ada, bo = fakes.store.get(MID).players
    assert (ada.name, ada.zone, bo.zone) == ("ADA", "Europe/Paris", None)
