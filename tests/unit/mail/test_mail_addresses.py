"""Which match a message is for: a match's address on the configured domain, else the id in the
subject; and the phase a reply answers, from the Message-ID of the mail it answers."""

from __future__ import annotations

import pytest

from game_core.mail.addresses import match_address, match_for, phase_answered, phase_message_id

DOMAIN = "play.genius.example"
ID = "m-6604cfc546dc"


@pytest.mark.parametrize(
    ("recipients", "subject", "found"),
    [
        ([f"{ID}@{DOMAIN}"], "", ID),
        ([f"play+{ID}@{DOMAIN}"], "", ID),
        (["M-6604CFC546DC@PLAY.Genius.Example"], "", ID),
        ([f"Play+{ID.upper()}@{DOMAIN}."], "", ID),
        ([f"Genius <{ID}@{DOMAIN}>"], "", ID),
        (["ada@x.org", f"{ID}@{DOMAIN}"], "", ID),
        ([f"m-111111111111@{DOMAIN}", f"{ID}@{DOMAIN}"], "", "m-111111111111"),
        ([f"{ID}@elsewhere.example"], "", None),
        ([f"{ID}@sub.{DOMAIN}"], "", None),
        ([f"other+{ID}@{DOMAIN}"], "", None),
        ([f"{ID}x@{DOMAIN}"], "", None),
        ([f"m-6604cfc546d@{DOMAIN}"], "", None),
        ([f"m-6604cfc546dg@{DOMAIN}"], "", None),
        ([f"play@{DOMAIN}"], f"Re: [{ID}] Pushing Crates: round 3", ID),
        ([f"play@{DOMAIN}"], f"my push for {ID.upper()}, round 3", ID),
        ([], f"({ID})", ID),
        (["m-111111111111@elsewhere.example"], f"Re: {ID}", ID),
        ([f"{ID}@{DOMAIN}"], "Re: [m-111111111111]", ID),
        ([], f"x{ID}", None),
        ([], f"{ID}0", None),
        ([], f"{ID}-2", None),
        ([], "Re: Pushing Crates", None),
        (["not an address", ""], "", None),
    ],
)
def test_match_for(recipients: list[str], subject: str, found: str | None) -> None:
    assert match_for(recipients, subject, DOMAIN) == found


def test_match_address_is_found_again() -> None:
    assert match_address(ID, DOMAIN) == f"{ID}@{DOMAIN}"
    assert match_for([match_address(ID, DOMAIN)], "", DOMAIN) == ID


def test_a_mail_of_the_match_says_its_phase_in_its_message_id() -> None:
    ids = {phase_message_id(ID, 7, "play.example") for _ in range(3)}
    assert len(ids) == 3  # each unique
    assert all(i.startswith("<m-6604cfc546dc.7.") and i.endswith("@play.example>") for i in ids)
    assert phase_message_id(ID, None, "play.example").count(".") == 2  # "<m-….<unique>@play.example>"


def test_a_notices_mail_keeps_its_message_id_when_sent_again_and_still_says_its_phase() -> None:
    told_as = f"{ID}/resolved-6/@all/mail/ada"
    first, again = (phase_message_id(ID, 7, "play.example", told_as) for _ in range(2))
    assert first == again  # a retried step's mail: the same Message-ID, for the receiver to drop
    assert first != phase_message_id(ID, 7, "play.example", f"{ID}/resolved-6/@all/mail/bo")  # Bo's is his own
    assert phase_answered(ID, first, ()) == 7


PHASE_7 = "<m-6604cfc546dc.7.0a1b@play.example>"
PHASE_9 = "<M-6604CFC546DC.9.ff@play.example>"


@pytest.mark.parametrize(
    ("in_reply_to", "references", "phase"),
    [
        (PHASE_7, (), 7),
        (PHASE_9, (PHASE_7, PHASE_9), 9),  # ids compared without regard to case
        ("<own@mail.example>", (PHASE_7, PHASE_9, "<own@mail.example>"), 9),  # the latest of the match's
        ("", (PHASE_7,), 7),
        ("<m-0000000000ff.3.ab@play.example>", (), None),  # another match's mail
        ("<m-6604cfc546dc.ab@play.example>", (), None),  # a mail sent while no phase was open
        ("<179612000000.1200.11@play.example>", (), None),
        ("", (), None),
    ],
)
def test_the_phase_a_reply_answers(in_reply_to: str, references: tuple[str, ...], phase: int | None) -> None:
    assert phase_answered(ID, in_reply_to, references) == phase
