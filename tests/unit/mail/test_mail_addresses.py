"""Which match a message is for: a match's address on the configured domain, else the id in the
subject."""

from __future__ import annotations

import pytest

from game_core.mail.addresses import match_address, match_for

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
