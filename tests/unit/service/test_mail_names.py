"""Players named by name in a mail, in any case, wherever the grammar takes an id; and the
sender's own name under their moves is their sign-off, never a move naming them."""

from __future__ import annotations

import pytest

from game_core.games import registry
from game_core.service.mail_lines import read_mail

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
