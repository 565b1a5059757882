"""Sealed receipts: every accepted submission's answer carries a commitment to the move,
SHA-256(salt || canonical JSON of {"kind": ..., "submission": ...}), with a fresh 256-bit salt kept
with the submission. Nobody can read the move from the receipt (the salt makes guessing it
hopeless); once its phase resolves the move and its salt are published (to everyone where the
rules reveal the move, else to its sender alone and in the final record), and anyone holding the
receipt can check that the move counted is the one sealed."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from game_core.match.clock import iso
from game_core.match.model import MatchRecord, PhaseRecord
from game_core.match.replay import canonical_json

SALT_BYTES = 32
"""256 bits: the commitment's input cannot be guessed even where a move has few values."""


def commitment(salt: str, kind: str, submission: Any) -> str:
    """SHA-256 of the salt's bytes (given in hex) then the UTF-8 canonical JSON of the move."""
    move = canonical_json({"kind": kind, "submission": submission}).encode()
    return hashlib.sha256(bytes.fromhex(salt) + move).hexdigest()


def seal(salt: str, at: datetime) -> dict[str, str]:
    """What a submission's sheet keeps of its receipt until the reveal: the salt, and when it was
    accepted (with the move, enough to give the receipt again)."""
    return {"salt": salt, "at": iso(at)}


def receipt(
    match_id: str, phase: str, number: int, player: str, kind: str, submission: Any, sealed: Mapping[str, str]
) -> dict[str, Any]:
    """What the sender keeps: where and when (`sealed`, from `seal`) the move was accepted, and
    its commitment (never the move nor the salt)."""
    return {
        "match_id": match_id,
        "phase": phase,
        "number": number,
        "player": player,
        "kind": kind,
        "at": sealed["at"],
        "commitment": commitment(sealed["salt"], kind, submission),
    }


def _opened(record: PhaseRecord, player: str, kind: str) -> str | None:
    """The commitment the phase's counted move of `player` and `kind` makes with the salt the
    record publishes for it; None when it publishes none (or counts no such move)."""
    salt = record.salts.get(player, {}).get(kind)
    move = record.submissions.get(player, {})
    return commitment(salt, kind, move[kind]) if salt is not None and kind in move else None


def openings(record: PhaseRecord) -> list[dict[str, Any]]:
    """The resolved phase's counted moves with the salts that open their receipts, in player then
    kind order (whom each may be shown is the caller's to choose)."""
    opened = []
    for player, moves in record.submissions.items():
        for kind, submission in moves.items():
            salt = record.salts.get(player, {}).get(kind)
            if salt is not None:
                opened.append(
                    {
                        "phase": record.name,
                        "number": record.number,
                        "player": player,
                        "kind": kind,
                        "submission": submission,
                        "salt": salt,
                    }
                )
    return opened


class ReceiptMismatch(ValueError):
    """A kept receipt the record does not open: the text says which and why."""


def check(record: MatchRecord, kept: Mapping[str, Any]) -> None:
    """Whether the record publishes the move `kept` (a receipt) sealed; ReceiptMismatch says how not."""
    try:
        match_id, phase, number = kept["match_id"], kept["phase"], kept["number"]
        player, kind, sealed = kept["player"], kept["kind"], kept["commitment"]
    except (KeyError, TypeError):
        raise ReceiptMismatch(f"{dict(kept) if isinstance(kept, Mapping) else kept!r} is not a receipt") from None
    named = f"the receipt for {player}'s {kind} in phase {number} ({phase})"
    if match_id != record.match_id:
        raise ReceiptMismatch(f"{named} is for match {match_id}, not this record's {record.match_id}")
    found = next((phase_record for phase_record in record.phases if phase_record.number == number), None)
    if found is None or found.name != phase:
        raise ReceiptMismatch(f"{named}: the record has no phase {number} named {phase!r}")
    if kind not in found.submissions.get(player, {}):
        raise ReceiptMismatch(f"{named}: the record counts no such move")
    opened = _opened(found, player, kind)
    if opened is None:
        raise ReceiptMismatch(f"{named}: the record publishes no salt for it")
    if opened != sealed:
        raise ReceiptMismatch(
            f"{named}: the move and salt the record publishes do not make its commitment {sealed} "
            "(the move counted is not the one sealed, or a later one of the same kind replaced it)"
        )


def check_log(record: MatchRecord) -> None:
    """Whether each move the record counts opens the commitment the log sealed when it was
    accepted (the last `submission_accepted` of its player, phase and kind carries it, inside the
    chain): a move or salt changed after the fact fails, as the sender's kept receipt does.
    ReceiptMismatch names the first that does not; events logged without one are not checked."""
    sealed: dict[tuple[Any, Any, Any], tuple[int, str]] = {}  # (number, player, kind), as the record says
    for position, event in enumerate(record.events or []):
        data = event.get("data") or {}
        if event.get("type") == "submission_accepted" and "commitment" in data:
            sealed[(data.get("number"), data.get("player"), data.get("kind"))] = (position, data["commitment"])
    for phase in record.phases:
        for player, moves in phase.submissions.items():
            for kind in moves:
                if (phase.number, player, kind) not in sealed:
                    continue
                position, logged = sealed[(phase.number, player, kind)]
                if _opened(phase, player, kind) != logged:
                    raise ReceiptMismatch(
                        f"{player}'s {kind} in phase {phase.number} ({phase.name}) does not open the commitment "
                        f"event {position + 1} (submission_accepted) logged, {logged}: the move or its salt "
                        "was changed after it was sealed"
                    )
