"""A participant's submissions to a phase as the store keeps them (`Sheet`), everything a submission
is checked against in one read (`SubmissionView`), what a conditional write of one may meet
(`AlreadyDelivered`, `HeaderMoved`), and what a stopping match frees (`garnet_changes`): the
records the store's port (`ports.MatchStore`) reads and writes for submissions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game_core.match.model import Match


@dataclass(frozen=True)
class Sheet:
    """A participant's submissions to one phase, as stored: the last valid one of each kind and
    the garnets each holds. Replaced whole, conditional on the revision read."""

    player: str
    phase_number: int
    kinds: dict[str, Any]
    costs: dict[str, int]
    revision: int
    updated_at: str
    """When the last of them arrived (ISO UTC): an early-closed phase closed then."""
    seals: dict[str, dict[str, str]] = field(default_factory=dict)
    """Each kind's sealed receipt as kept until the reveal: its salt (hex, `match.receipts`) and
    when it was accepted (ISO UTC), {"salt", "at"}."""

    @property
    def held(self) -> int:
        """The garnets these submissions hold until the phase resolves."""
        return sum(self.costs.values())


def open_sheet(sheet: Sheet | None, match: Match) -> Sheet | None:
    """`sheet` if it holds submissions to the match's open phase; None if it is an earlier
    phase's (a participant's sheet stays in place until their first move to the next phase)."""
    if sheet is None or match.phase is None or sheet.phase_number != match.phase.number:
        return None
    return sheet


@dataclass(frozen=True)
class SubmissionView:
    """Everything a submission (or an immediate action) is checked against, read at once: the
    match, the sender's free garnets (a guest's: in their purse), their submissions so far (to any
    phase), the reply to an earlier delivery, and what early close needs from the match header
    (who is done, the waiting machine's token)."""

    match: Match
    available: int
    """The balance less every garnet held by submissions waiting for their phases."""
    sheet: Sheet | None
    delivered: dict[str, Any] | None = None
    done: frozenset[str] = frozenset()
    """The actors done with the open phase (`engine.has_done`), as its submissions recorded them."""
    task_token: str | None = None
    """The token of the machine's last wait, None before its first."""
    accepting: bool = True
    """False once a resolution has closed the door on the open phase (it is being resolved)."""
    balance: int = 0
    """The sender's garnet balance (what they own; `available` is what is not held)."""

    @property
    def open_sheet(self) -> Sheet | None:
        """The sender's submissions to the open phase (`open_sheet`)."""
        return open_sheet(self.sheet, self.match)

    def held(self, kind: str) -> int:
        """What the sender's submission of that kind to the open phase holds now."""
        sheet = self.open_sheet
        return sheet.costs.get(kind, 0) if sheet is not None else 0

    def spendable(self, kind: str) -> int:
        """What a new submission of that kind may spend: it replaces the one holding `held`."""
        return self.available + self.held(kind)


class AlreadyDelivered(Exception):
    """A delivery with this key was stored first (a redelivery racing the first)."""


class HeaderMoved(Exception):
    """The match header changed since it was read (another actor finished, the machine began a
    wait, a host act, the phase closed): read again and judge the submission afresh."""


def garnet_changes(
    guests: dict[str, str], releases: dict[str, int], returned: dict[str, int]
) -> dict[str, tuple[int, int]]:
    """Each holding's (balance, available) change when a match stops: what its submissions held is
    free again, and what each guest's purse holds (`returned`) goes to their player (`guests`:
    guest -> player)."""
    changes: dict[str, tuple[int, int]] = {}

    def change(participant: str, balance: int, available: int) -> None:
        was = changes.get(participant, (0, 0))
        changes[participant] = (was[0] + balance, was[1] + available)

    for participant, amount in releases.items():
        change(participant, 0, amount)
    for guest, amount in returned.items():
        change(guest, -amount, -amount)
        change(guests[guest], amount, amount)
    return changes
