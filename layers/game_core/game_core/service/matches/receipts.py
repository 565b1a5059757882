"""Sealed receipts opened at the reveal: each resolved phase's counted moves with their salts,
publicly for the kinds the rules show everyone (`capabilities.RevealsMoves`), else in the sender's own
notice only; the final record keeps every salt (`PhaseRecord.salts`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from game_core.games.capabilities import RevealsMoves
from game_core.games.protocol import AnyGame
from game_core.games.text_layout import prose
from game_core.match import receipts
from game_core.match.model import Match, PhaseRecord
from game_core.match.replay import canonical_json
from game_core.service.matches.sheets import Sheet, open_sheet
from game_core.service.ports import Notice


def salts(sheets: Mapping[str, Sheet]) -> dict[str, dict[str, str]]:
    """The salt of each submission the phase counts (player -> kind -> hex), for its record."""
    kept = {
        player: {kind: seal["salt"] for kind, seal in sheet.seals.items() if kind in sheet.kinds and seal["salt"]}
        for player, sheet in sheets.items()
    }
    return {player: kinds for player, kinds in kept.items() if kinds}


def standing(match: Match, sheet: Sheet | None, kind: str) -> dict[str, Any] | None:
    """The receipt of the sender's submission of `kind` that stands in the open phase, as its
    answer gave it (None: they sent none)."""
    current = open_sheet(sheet, match)
    seal = current.seals.get(kind) if current is not None else None
    if current is None or match.phase is None or seal is None or kind not in current.kinds:
        return None
    phase = match.phase
    return receipts.receipt(match.match_id, phase.name, phase.number, current.player, kind, current.kinds[kind], seal)


def revealed_kinds(game: AnyGame) -> frozenset[str]:
    return game.revealed_kinds if isinstance(game, RevealsMoves) else frozenset()


def with_openings(notices: Sequence[Notice], game: AnyGame, record: PhaseRecord) -> list[Notice]:
    """The resolution's notices, each opening the receipts its reader may see opened: the public
    one those of the kinds the rules reveal to everyone, a private one those and its recipient's
    own (a webhook's body is the public one's with the private one's laid over it: each whole)."""
    public = revealed_kinds(game)
    every = receipts.openings(record)
    opened = []
    for notice in notices:
        own = {notice.recipient} - {None}
        shown = [opening for opening in every if opening["kind"] in public or opening["player"] in own]
        opened.append(replace(notice, body=notice.body | {"opened": shown}) if shown else notice)
    return opened


def opened_lines(public: Mapping[str, Any], own: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """A mail's lines for the receipts its notices open (each once): whose move, the move as the
    receipt sealed it (canonical JSON) and its salt."""
    shown = {(o["number"], o["player"], o["kind"]): o for o in [*public.get("opened", []), *own.get("opened", [])]}
    if not shown:
        return []
    lines = ["Sealed moves opened (each receipt's commitment is SHA-256(salt + move)):"]
    for opening in shown.values():
        move = canonical_json({"kind": opening["kind"], "submission": opening["submission"]})
        who = names.get(opening["player"], opening["player"])
        lines += [
            f"  {who}, {opening['kind']} for {opening['phase']}:",
            f"    move {move}",
            f"    salt {opening['salt']}",
        ]
    return lines


PROVES = (
    "At the reveal, the move counted as yours must open this seal exactly, so it cannot have been"
    " changed after you sent it."
)
"""What a receipt proves, in words a player acts on (no command they may not have)."""
KEEP = (
    f"Sealed receipt of what you sent: keep it. {PROVES} The reveal shows the move and its salt:"
    " SHA-256 of the salt then the move must give the commitment below."
)
"""What heads a receipt in a mail (folded as prose, `receipt_lines`): what it proves and how the
reveal is checked against it."""


def receipt_lines(*kept: Mapping[str, Any] | None) -> list[str]:
    """A mail's lines for receipts to keep (a move's answer, STATUS): under the heading, each
    receipt's JSON on a line of its own (as match-verify --receipt reads them too); none, no lines."""
    lines = [f"  {canonical_json(receipt)}" for receipt in kept if receipt is not None]
    return [*prose(KEEP), *lines] if lines else []
