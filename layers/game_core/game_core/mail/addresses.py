"""Which match a message is for, and the address a match receives mail at.

A match's address is `<match id>@<domain>`; `play+<match id>@<domain>` reaches it too (so a
deployment can route one mailbox). Failing a recipient on the configured domain, the match id
written in the subject (`[m-6604cfc546dc]`, or anywhere as a word) is taken. Match ids are "m-"
and 12 hexadecimal digits, compared without regard to case.

Each mail the service sends says in its Message-ID which phase it belongs to
(`<match id>.<phase number>.<unique>@<domain>`), so that a reply to it tells which phase its
sender was answering (`phase_answered`); a notice's mail makes `<unique>` from the notice's
mail id, an answer from the message it answers, so that the same mail sent again is
recognisably the same.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Iterable, Sequence
from email.utils import parseaddr

_ID = r"m-[0-9a-f]{12}"
_LOCAL_PART = re.compile(rf"(?:play\+)?({_ID})", re.IGNORECASE)
_ID_AS_WORD = re.compile(rf"(?<![\w-])({_ID})(?![\w-])", re.IGNORECASE)
_PHASE_MESSAGE = re.compile(rf"<({_ID})\.([0-9]{{1,9}})\.[0-9a-f]+@[^<>\s]+>", re.IGNORECASE)


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


def phase_message_id(match_id: str, phase_number: int | None, domain: str, told_as: str | None = None) -> str:
    """The Message-ID of a mail of the match sent while phase `phase_number` is open (None: none
    is, and the id names no phase): made from `told_as` (a notice's mail id, or the message an
    answer answers), so the mail keeps it when sent again; a new one for a mail without one."""
    phase = "" if phase_number is None else f"{phase_number}."
    unique = uuid.uuid4().hex if told_as is None else hashlib.sha256(told_as.encode()).hexdigest()[:32]
    return f"<{match_id}.{phase}{unique}@{domain}>"


def phase_answered(match_id: str, in_reply_to: str, references: Sequence[str]) -> int | None:
    """The number of the phase the match's mail that a reply answers belongs to: its In-Reply-To,
    else the latest of its References that is one of the match's; None when it answers none."""
    for message_id in (in_reply_to, *reversed(references)):
        found = _PHASE_MESSAGE.fullmatch(message_id.strip())
        if found and found.group(1).lower() == match_id.lower():
            return int(found.group(2))
    return None
