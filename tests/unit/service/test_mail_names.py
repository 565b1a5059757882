"""Players named by name in a mail or a webhook submission, in any case, wherever an id is taken
(the id is what is stored); and the sender's own name under their moves is their sign-off, never
a move naming them."""

from __future__ import annotations

import pytest
from crates_driver import Table, push
from fakes import Fakes

from game_core.games import registry
from game_core.games.abstrac.models import Starter
from game_core.games.clubs.models import Peek, Transfer
from game_core.games.plain_text import Roster
from game_core.games.protocol import PLAYERS
from game_core.match.model import MatchRequest
from game_core.service.mail.lines import read_mail
from game_core.service.matches.lifecycle import create_match

ABSTRAC, CRATES = registry.load("abstrac"), registry.load("crates")
DUO = {"p1": "Ada", "p2": "Bo"}


@pytest.mark.parametrize(
    ("text", "starter", "unread"),
    [
        # The short form names Bo; the sign-off names Ada, who wrote it: left unread
        ("Bo\n\nCheers,\nAda", "p2", ("Cheers,", "Ada")),
        ("bo\nada", "p2", ("ada",)),  # in any case
        ("STARTER bo", "p2", ()),  # the keyword's form, by name
        ("STARTER Ada", "p1", ()),  # with the keyword, Ada may name herself
    ],
)
def test_abstrac_reads_a_starter_by_name_and_not_the_senders_own_sign_off(
    text: str, starter: str, unread: tuple[str, ...]
) -> None:
    said = read_mail(ABSTRAC, text, ("starter",), DUO, sender="p1")
    assert [(move.kind, move.submission) for move in said.moves] == [("starter", {"starter": starter})]
    assert (said.reasons, said.unread) == ((), unread)


def test_the_senders_own_name_alone_is_no_move() -> None:
    said = read_mail(ABSTRAC, "Ada", ("starter",), DUO, sender="p1")
    assert said.moves == () and [reason.code for reason in said.reasons] == ["no_move"]


def test_a_crate_named_by_a_name_of_two_words_in_any_case() -> None:
    names = {"ada": "Ada Lovelace", "bo": "Bo Diddley"}
    said = read_mail(CRATES, "push BO DIDDLEY left 2\nGROUND ICE\n\nAda Lovelace", ("round",), names, sender="ada")
    [move] = said.moves
    assert move.submission["pushes"] == [{"crate": "bo", "direction": "left"}] * 2
    assert said.unread == ("Ada Lovelace",)


def test_a_crate_nobody_is_called_refuses_the_mail_naming_the_players() -> None:
    names = {"ada": "Ada Lovelace", "bo": "Bo Diddley"}
    said = read_mail(CRATES, "PUSH Cy RIGHT\nGROUND ICE", ("round",), names, sender="ada")
    assert [reason.text for reason in said.reasons] == [
        'line 1 "PUSH Cy RIGHT": "Cy" is not a player of the match (Ada Lovelace (ada), Bo Diddley (bo)); '
        "write PUSH <player> LEFT|RIGHT [times]"
    ]


def test_a_webhook_submission_may_name_a_crate_by_name_and_the_id_is_what_is_stored() -> None:
    fakes = Fakes()
    players = [{"id": "ada", "name": "Countess"}, {"id": "bo", "name": "Robert"}]
    request = MatchRequest.model_validate({"game": "crates", "players": players, "phase_seconds": 3600, "seed": 7})
    created = create_match(fakes.ports, request)
    table = Table(fakes, created["match_id"], created)
    table.resolve_at_deadline()  # the Pregame: Round 1 is open

    reply = table.turn("ada", "Round 1", push("ROBERT", 2) + push("countess"))

    assert reply["submission"]["pushes"] == push("bo", 2) + push("ada")
    stored = fakes.store.submissions(created["match_id"], table.number)
    assert stored["ada"]["round"]["pushes"] == push("bo", 2) + push("ada")


@pytest.mark.parametrize(
    ("model", "payload", "field", "expected"),
    [
        (Transfer, {"to": "ROBERT", "garnets": 1}, "to", "bo"),  # Clubs' GIVE, as the webhook sends it
        (Peek, {"participant": "countess", "round": 1}, "participant", "ada"),
        (Starter, {"starter": "Robert"}, "starter", "bo"),  # Abstrac's
        (Transfer, {"to": "Zed", "garnets": 1}, "to", "Zed"),  # nobody: kept, for the game to refuse
    ],
)
def test_a_participant_in_a_model_is_read_by_name_with_the_matchs_roster(model, payload, field, expected) -> None:
    roster = Roster({"ada": "Countess", "bo": "Robert"})
    assert getattr(model.model_validate(payload, context={PLAYERS: roster}), field) == expected
    assert getattr(model.model_validate(payload), field) == payload[field]  # no roster: as written
