"""Highest Unique Bid in plain text: `BID 3` (or `3` alone), and the text of a view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game_core.games.plain_text import LineForm, LineGrammar, Words
from game_core.games.protocol import Model
from game_core.games.text_layout import name, name_list, numbers, table
from highbid.models import SUBMISSIONS, Bid


def _bid(words: Words) -> dict[str, Any]:
    return {"chips": words.number("chips")}


class HighbidText(LineGrammar):
    models = SUBMISSIONS
    forms = (LineForm(("BID",), "bid", _bid, "BID <chips>", "0 up to your chips", short=True),)
    examples = {"bid": Bid(chips=3)}

    def write_text(self, kind: str, submission: Model) -> list[str]:
        assert isinstance(submission, Bid)
        return [f"BID {submission.chips}"]

    def render_view(self, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
        public = view["public"]
        lines = [f"Highest Unique Bid. Players: {name_list(names, public['players'])}"]
        rounds = [
            [str(r["round"]), name(names, r["winner"]) if r["winner"] else "nobody", str(r["amount"] or "-")]
            for r in public["rounds"]
        ]
        if rounds:
            lines += ["", *table(["Round", "Won by", "Bid"], rounds)]
        if "result" in public:
            standings = [[str(s["place"]), name(names, s["player"]), s["score"]] for s in public["result"]["standings"]]
            lines += ["", *table(["Place", "Player", "Score"], standings)]
        private = view.get("private")
        if private is not None:
            lines += ["", f"Your chips: {private['chips']}", f"Your bids: {numbers(private['bids']) or 'none yet'}"]
        return "\n".join(lines)
