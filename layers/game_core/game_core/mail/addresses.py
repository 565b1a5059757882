"""Which match a message is for, and the address a match receives mail at.

A match's address is `<match id>@<domain>`; `play+<match id>@<domain>` reaches it too (so a
deployment can route one mailbox). Failing a recipient on the configured domain, the match id
written in the subject (`[m-6604cfc546dc]`, or anywhere as a word) is taken. Match ids are "m-"
and 12 hexadecimal digits, compared without regard to case.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from email.utils import parseaddr

_ID = r"m-[0-9a-f]{12}"
_LOCAL_PART = re.compile(rf"(?:play\+)?({_ID})", re.IGNORECASE)
_ID_AS_WORD = re.compile(rf"(?<![\w-])({_ID})(?![\w-])", re.IGNORECASE)


def match_address(match_id: str, domain: str) -> str:
    """The address players write to for the match."""
    return f"{match_id}@{domain}"


def match_for(recipients: Iterable[str], subject: str, domain: str) -> str | None:
    """The match id (lower case) of the first recipient that is a match's address on `domain`,
    else the first match id in `subject`, else None. Recipients may be bare addresses (SES's
    envelope recipients) or header values ("Name <address>")."""
    for recipient in recipients:
        local, _, host = parseaddr(recipient)[1].rpartition("@")
        found = _LOCAL_PART.fullmatch(local)
        if found and host.lower().rstrip(".") == domain.lower():
            return found.group(1).lower()
    in_subject = _ID_AS_WORD.search(subject)
    return in_subject.group(1).lower() if in_subject else None
