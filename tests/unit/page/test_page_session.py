"""The page's session on the fakes (Pushing Crates, Ada and Bo, secrets secret-1 and secret-2):
a secret is exchanged for a cookie that names the participant, and the cookie stops working when
it expires, is altered, belongs to another match, or the secret it was made with is replaced."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from game_core.errors import Unauthorized
from game_core.match.model import secret_hash
from game_core.service.page import play, session
from game_core.service.ports import Event

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from crates_driver import Table  # noqa: E402

MID = "m-000000000001"


def signed_in(who: str = "secret-1") -> tuple[Table, session.Session]:
    table = Table.open()
    return table, play.sign_in(table.ports, MID, who)


def test_a_secret_opens_its_owners_page_and_the_cookie_holds_no_secret() -> None:
    table, ada = signed_in("secret-1")
    assert (ada.match_id, ada.participant) == (MID, "ada")
    assert play.sign_in(table.ports, MID, " secret-2\n").participant == "bo"  # pasted with blanks
    assert "secret-1" not in ada.cookie and secret_hash("secret-1") not in ada.cookie
    # The cookie: participant, issued (12:00 on the fakes' clock, 2026-12-01 = 1796126400), MAC
    participant, issued, mac = ada.cookie.split(".")
    assert (participant, issued, len(mac)) == ("ada", "1796126400", 43)
    assert play.show(table.ports, MID, ada.cookie).session == ada


def test_a_secret_of_nobody_in_the_match_is_refused() -> None:
    table = Table.open()
    with pytest.raises(Unauthorized):
        play.sign_in(table.ports, MID, "secret-3")


def _replace_secret(table: Table, participant: str, secret: str) -> None:
    """As the host's reissue-secret stores it: the participant's hash, nothing else."""
    match = table.match()
    players = tuple(
        p.model_copy(update={"secret_hash": secret_hash(secret)}) if p.id == participant else p for p in match.players
    )
    table.fakes.store.save(
        match, match.model_copy(update={"players": players}), Event("test", table.fakes.clock.now(), {})
    )


def test_a_cookie_made_with_a_secret_since_replaced_no_longer_opens_the_page() -> None:
    table, ada = signed_in()
    _replace_secret(table, "ada", "a-new-secret")
    with pytest.raises(play.SignedOut):
        play.show(table.ports, MID, ada.cookie)
    assert play.sign_in(table.ports, MID, "a-new-secret").participant == "ada"
    with pytest.raises(Unauthorized):
        play.sign_in(table.ports, MID, "secret-1")


def test_a_cookie_expires_after_thirty_days() -> None:
    table, ada = signed_in()
    table.fakes.clock.advance(session.MAX_AGE)  # exactly 30 days: still good
    assert play.show(table.ports, MID, ada.cookie).session.participant == "ada"
    table.fakes.clock.advance(1)
    with pytest.raises(play.SignedOut):
        play.show(table.ports, MID, ada.cookie)


def _altered(cookie: str) -> list[str]:
    participant, issued, mac = cookie.split(".")
    flipped = ("A" if mac[0] != "A" else "B") + mac[1:]
    return [
        f"bo.{issued}.{mac}",  # another participant under Ada's MAC
        f"{participant}.{int(issued) - 60}.{mac}",  # an earlier issue time (to outlive the 30 days)
        f"{participant}.{issued}.{flipped}",
        f"{participant}.{issued}",
        "",
        "ada",
    ]


def test_an_altered_cookie_opens_nothing() -> None:
    table, ada = signed_in()
    for cookie in _altered(ada.cookie):
        with pytest.raises(play.SignedOut):
            play.show(table.ports, MID, cookie)


def test_a_cookie_of_one_match_does_not_open_another() -> None:
    table, ada = signed_in()
    other = Table.open(table.fakes)  # m-000000000002, the same ids
    _replace_secret(other, "ada", "secret-1")  # and Ada's secret too: only the match id differs
    with pytest.raises(play.SignedOut):
        play.show(table.ports, "m-000000000002", ada.cookie)


def test_the_form_token_is_the_sessions_own() -> None:
    table, ada = signed_in()
    bo = play.sign_in(table.ports, MID, "secret-2")
    assert session.form_is_ours(ada, ada.csrf)
    assert not session.form_is_ours(ada, bo.csrf) and not session.form_is_ours(ada, "")
    assert ada.csrf not in ada.cookie  # the page shows the token, never the cookie


def test_an_id_with_dots_signs_in_too() -> None:
    # Participant ids may hold dots (a-z, 0-9, _ . -): the cookie's own parts are its last two.
    from game_core.match.model import MatchRequest
    from game_core.service.matches.lifecycle import create_match

    table = Table.open()
    request = {"game": "crates", "players": [{"id": "ada.l"}, {"id": "b.o.b"}], "seed": 7}
    created = create_match(table.ports, MatchRequest.model_validate(request))
    bob = play.sign_in(table.ports, created["match_id"], created["secrets"]["b.o.b"])
    assert bob.cookie.startswith("b.o.b.")
    assert play.show(table.ports, created["match_id"], bob.cookie).session.participant == "b.o.b"
