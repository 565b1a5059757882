"""The sealed receipt of a move, as the player's page shows it (issue 30 item 3): folded away
under one sentence saying what it proves, its JSON wrapped to fit a phone, and a copy button
the page's script adds (`static/page.js`: without a script the text is there to select)."""

from __future__ import annotations

from html import escape as esc

from game_core.match.replay import canonical_json
from game_core.service.matches import receipts
from game_core.service.page.play import Seen


def receipt(seen: Seen, kind: str) -> str:
    """The sealed receipt of what was sent of `kind` (issue 23 item 1), under it, folded: the
    JSON the move's answer gave, to keep; `receipt-<kind>` the JSON, `copy-receipt-<kind>` the
    place of the script's copy button."""
    sealed = receipts.standing(seen.match, seen.view.sheet, kind)
    if sealed is None:
        return ""
    hook = esc(kind)
    return (
        f'<details class="receipt">\n<summary>Sealed receipt of your {hook}</summary>\n'
        f"<p>{esc(receipts.PROVES)} Keep a copy to check it then.</p>\n"
        f'<div class="copy" id="copy-receipt-{hook}" data-copies="receipt-{hook}"></div>\n'
        f'<pre class="sealed" id="receipt-{hook}">{esc(canonical_json(sealed))}</pre>\n</details>'
    )
