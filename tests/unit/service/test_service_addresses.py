"""Addresses are checked where they enter (create's players and host_email, replace's email),
through the host-commands handler on the fakes: one that is no address is refused naming its
field and changing nothing; one with spaces around it is kept without them, in its own case,
and mail goes to it as kept (`To: cy@example.com`, not `To:  cy@example.com`)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_host_mistakes import MID, SETTINGS, Hosted, settings


def players(first: str, bo: str = "bo@example.com", first_id: str = "ada") -> list[dict[str, Any]]:
    """The settings' two players, the first one's address (and id) as given."""
    return [{"id": first_id, "email": first}, {"id": "bo", "name": "Bo", "email": bo}]


NOT_AN_ADDRESS = "is not an e-mail address (local@domain)"
COMMANDS = {
    # A field's path in the reason -> the command giving `given` there
    "create.match.players.0.email": lambda given: settings(players=players(given)),
    "create.match.players.1.email": lambda given: settings(players=players("ada@example.com", given)),
    "create.match.host_email": lambda given: settings(host_email=given),
    "replace.email": lambda given: {
        "command": "replace",
        "match_id": MID,
        "seat": "bo",
        "name": "Dana",
        "email": given,
    },
}
REFUSED = [
    # (the mistake, the field, the address as given: the reason names both)
    ("words for the @", "create.match.players.0.email", "ada at example.com"),
    ("Bo's, the second player's, without its domain", "create.match.players.1.email", "bo@"),
    ("a name beside it", "create.match.players.0.email", "Ada <ada@example.com>"),
    ("two addresses in one", "create.match.players.0.email", "ada@example.com, al@example.com"),
    ("a domain without a dot", "create.match.host_email", "host@localhost"),
    ("an empty address", "create.match.host_email", ""),
    ("a space inside", "create.match.host_email", "host@exa mple.com"),
    ("a replacement's address with words for the @", "replace.email", "dana at example.com"),
]


@pytest.mark.parametrize(("mistake", "field", "given"), REFUSED, ids=[row[0] for row in REFUSED])
def test_an_address_that_is_none_is_refused_naming_its_field_and_changes_nothing(mistake, field, given) -> None:
    hosted = Hosted()
    before, matches = hosted.stored(), hosted.fakes.ids.matches

    reply = hosted.send(json.loads(json.dumps(COMMANDS[field](given)).replace(MID, hosted.match_id)))

    assert (reply["ok"], reply["error"]) == (False, "Malformed"), reply
    [reason] = reply["reasons"]
    assert (reason["code"], reason["text"]) == ("value_error", f"{field}: {given!r} {NOT_AN_ADDRESS}"), reason
    assert hosted.stored() == before and hosted.fakes.ids.matches == matches
    assert not hosted.fakes.notifier.published and not hosted.fakes.mailer.sent


KEPT = [
    # (as given, as kept and mailed to: the spaces around it gone, its case its own)
    ("Ada.L@Example.com ", "Ada.L@Example.com"),
    (" cy@example.com", "cy@example.com"),
    ("\tada+genius@mail.example.co.uk\n", "ada+genius@mail.example.co.uk"),
]


@pytest.mark.parametrize(("given", "kept"), KEPT)
def test_an_address_with_spaces_around_it_is_kept_without_them_in_its_own_case(given: str, kept: str) -> None:
    hosted = Hosted()
    request = SETTINGS | {"players": players(given, first_id="cy"), "host_email": given}  # Cy: a new id

    created = hosted.send({"command": "create", "match": request})

    assert created["ok"], created
    match = hosted.fakes.store.get(created["match_id"])
    assert match.players[0].email == kept
    assert match.host_email == kept.lower()  # the host's is registered in lower case (`Match.host_email`)
    [opening] = [mail for mail in hosted.fakes.mailer.sent if mail.to == kept]
    assert f"\nTo: {kept}\r\n".encode() in opening.raw  # one space after the colon: its own case
