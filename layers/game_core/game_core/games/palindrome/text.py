"""Palindrome Construction in plain text (play by e-mail): the lines of a bid and of a construction,
and the text of a view.

    BID 2                       (optional: names the round bid in; alone: a bid on nothing)
    CARD 9 PACK 3               (one line per card; ITEM for an item)
    GARNETS 2 ITEM 1            (garnets on an item; ITEM left out: item 1)
    BUILD 1                     (optional: names the round built; alone: place no digit)
    APPEND 397 TO 1 AT 2        (AT only after an Insert on that string)
    DUPLICATE 7 / SHIFT 7 TO 8 / INSERT 2 / ERASER 2 AT 3 / SWAP 1 AT 2 AND 5 / MIRROR 1 / KEEP /
    CLONE 1 TO 3                (copy string 1 onto the end of string 3)

The steps of a construction are applied in the order of their lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from game_core.games.capabilities import Board
from game_core.games.palindrome.construction import Construction, Step
from game_core.games.palindrome.models import BID, CONSTRUCTION, SUBMISSIONS, Bid, CardBid
from game_core.games.plain_text import Header, LineForm, LineGrammar, Words
from game_core.games.protocol import Model
from game_core.games.text_layout import listing, name, name_list, table, wrapped

TARGETS = {"PACK": "pack", "ITEM": "item"}
DIGITS = re.compile(r"^[0-9]+$")
DIGIT = re.compile(r"^[0-9]$")


def _bid_phase(round_number: int, accepts: Sequence[str]) -> str:
    if round_number == 1:
        return "Round 1 bidding"
    return f"Round {round_number} bidding and round {round_number - 1} construction"


def _construction_phase(round_number: int, accepts: Sequence[str]) -> str:
    # The last round is built in a phase of its own, which takes no bid.
    if BID in accepts:
        return f"Round {round_number + 1} bidding and round {round_number} construction"
    return f"Round {round_number} construction"


def _card(words: Words) -> dict[str, Any]:
    card = words.number("card")
    words.skip("ON")
    target = words.choice("target", TARGETS)
    return {"cards": [{"card": card, target: words.number(target)}]}


def _garnets(words: Words) -> dict[str, Any]:
    fields = {"garnets": words.number("garnets")}
    words.skip("ON")
    if words.more():
        words.choice("target", {"ITEM": "item"})
        fields["garnet_item"] = words.number("item")
    return fields


def _step(read: Callable[[Words], dict[str, Any]]) -> Callable[[Words], dict[str, Any]]:
    """A construction step's reader: the step's fields, as the one step its line adds."""
    return lambda words: {"steps": [read(words)]}


def _append(words: Words) -> dict[str, Any]:
    step: dict[str, Any] = {"action": "append", "digits": words.shaped("digits", DIGITS, "digits, like 397")}
    words.skip("TO")
    step["string"] = words.number("string")
    if words.more():
        words.skip("AT")
        step["position"] = words.number("position")
    return step


def _digit(words: Words, what: str = "digit") -> str:
    return words.shaped(what, DIGIT, "one digit, 0-9")


def _duplicate(words: Words) -> dict[str, Any]:
    return {"action": "duplicate", "digit": _digit(words)}


def _shift(words: Words) -> dict[str, Any]:
    digit = _digit(words)
    words.skip("TO", "INTO")
    return {"action": "shift", "digit": digit, "to": _digit(words)}


def _eraser(words: Words) -> dict[str, Any]:
    string = words.number("string")
    words.skip("AT")
    return {"action": "eraser", "string": string, "position": words.number("position")}


def _swap(words: Words) -> dict[str, Any]:
    string = words.number("string")
    words.skip("AT")
    first = words.number("position")
    words.skip("AND")
    return {"action": "swap", "string": string, "first": first, "second": words.number("position")}


def _one_string(action: str) -> Callable[[Words], dict[str, Any]]:
    def read(words: Words) -> dict[str, Any]:
        words.skip("INTO", "TO")
        return {"action": action, "string": words.number("string")}

    return read


def _clone(words: Words) -> dict[str, Any]:
    source = words.number("string")
    words.skip("TO", "ONTO")
    return {"action": "clone", "source": source, "string": words.number("string")}


def _step_form(keywords: tuple[str, ...], read: Callable[[Words], dict[str, Any]], usage: str, note: str) -> LineForm:
    return LineForm(keywords, CONSTRUCTION, _step(read), usage, note, many=True)


class PalindromeText(LineGrammar):
    models = SUBMISSIONS
    forms = (
        LineForm(("CARD",), BID, _card, "CARD <card> PACK|ITEM <number>", "one line per card", many=True),
        LineForm(("GARNETS", "GARNET"), BID, _garnets, "GARNETS <count> [ITEM <number>]", "on item 1 if not said"),
        _step_form(("APPEND",), _append, "APPEND <digits> TO <string> [AT <pos>]", "AT: after an Insert"),
        _step_form(
            ("DUPLICATE",), lambda words: {"action": "duplicate", "digit": _digit(words)}, "DUPLICATE <digit>", ""
        ),
        _step_form(("SHIFT",), _shift, "SHIFT <digit> TO <digit>", ""),
        _step_form(("INSERT",), _one_string("insert"), "INSERT <string>", "then APPEND ... AT"),
        _step_form(("ERASER", "ERASE"), _eraser, "ERASER <string> AT <pos>", ""),
        _step_form(("SWAP",), _swap, "SWAP <string> AT <pos> AND <pos>", ""),
        _step_form(("MIRROR",), _one_string("mirror"), "MIRROR <string>", ""),
        _step_form(("KEEP",), lambda words: {"action": "keep"}, "KEEP", "keeps the unplaced digits"),
        _step_form(("CLONE",), _clone, "CLONE <string> TO <string>", "the first onto the second"),
    )
    headers = (
        Header("BID", BID, _bid_phase, "BID [round]", "optional; alone: a bid on nothing"),
        Header("BUILD", CONSTRUCTION, _construction_phase, "BUILD [round]", "optional; alone: none placed"),
    )
    examples = {
        BID: Bid(cards=[CardBid(card=9, pack=3), CardBid(card=5, item=1)], garnets=2),
        CONSTRUCTION: Construction.model_validate(
            {
                "steps": [
                    {"action": "insert", "string": 2},
                    {"action": "append", "string": 1, "digits": "397"},
                    {"action": "append", "string": 2, "digits": "5", "position": 1},
                ]
            }
        ),
    }

    def write_text(self, kind: str, submission: Model) -> list[str]:
        if isinstance(submission, Bid):
            lines = [_card_line(card) for card in submission.cards]
            if submission.garnets or submission.garnet_item != 1:
                item = "" if submission.garnet_item == 1 else f" ITEM {submission.garnet_item}"
                lines.append(f"GARNETS {submission.garnets}{item}")
            return lines or ["BID"]
        assert isinstance(submission, Construction)
        return [_step_line(step) for step in submission.steps] or ["BUILD"]

    def draw_board(self, view: Mapping[str, Any], names: Mapping[str, str], viewer: str | None) -> Board:
        from game_core.games.palindrome import board  # only a page draws: not at import

        return board.draw(view, names, viewer)

    def render_view(self, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
        public = view["public"]
        phase = public["phase"] or "the match is over"
        lines = listing(f"Palindrome Construction ({public['rule_set_title']}): {phase}.")
        lines += listing(f"Players: {name_list(names, public['players'])}")
        for entry in public["round_log"]:
            lines += ["", *_round(entry, names)]
        if public.get("final"):
            lines += ["", *_final(public["final"], names)]
        if view.get("private"):
            lines += ["", *self._private(view["private"])]
        return "\n".join(lines)

    def _private(self, private: Mapping[str, Any]) -> list[str]:
        strings = "   ".join(f"{n}: {s or '(empty)'}" for n, s in enumerate(private["strings"], start=1))
        lines = [f"Your strings: {strings}", f"Your digits to place: {private['digits'] or 'none'}"]
        items = [
            f"{item['name']} (won in round {item['round']}, "
            + ("unused)" if item["used_in_round"] is None else f"used in round {item['used_in_round']})")
            for item in private["items"]
        ]
        lines += listing(f"Your items: {'; '.join(items) or 'none'}")
        lines.append(f"Garnets you spent: {private['garnets_spent']}")
        for entry in private["bids"]:
            said = (
                "nothing sent"
                if entry["bid"] is None
                else ", ".join(self.write_text(BID, Bid.model_validate(entry["bid"])))
            )
            lines += listing(f"Your bid in round {entry['round']}: {said}")
        for entry in private["constructions"]:
            built = entry["construction"]
            said = (
                "nothing sent"
                if built is None
                else ", ".join(self.write_text(CONSTRUCTION, Construction.model_validate(built)))
            )
            lines += wrapped(
                f"Your construction of round {entry['round']} (digits {entry['digits'] or 'none'}, kept "
                f"{entry['kept'] or 'none'}, discarded {entry['discarded'] or 'none'}): {said}"
            )
        return lines

    def _sent(self, kind: str, submission: dict[str, Any] | None) -> str:
        """A submission the view lists, in the grammar's words, on one line."""
        if submission is None:
            return "nothing sent"
        return ", ".join(self.write_text(kind, self.models[kind].model_validate(submission)))


def _card_line(card: CardBid) -> str:
    target = f"PACK {card.pack}" if card.pack is not None else f"ITEM {card.item}"
    return f"CARD {card.card} {target}"


_STEP_LINES: dict[str, Callable[[Any], str]] = {
    "append": lambda s: f"APPEND {s.digits} TO {s.string}" + ("" if s.position is None else f" AT {s.position}"),
    "duplicate": lambda s: f"DUPLICATE {s.digit}",
    "shift": lambda s: f"SHIFT {s.digit} TO {s.to}",
    "insert": lambda s: f"INSERT {s.string}",
    "eraser": lambda s: f"ERASER {s.string} AT {s.position}",
    "swap": lambda s: f"SWAP {s.string} AT {s.first} AND {s.second}",
    "mirror": lambda s: f"MIRROR {s.string}",
    "keep": lambda s: "KEEP",
    "clone": lambda s: f"CLONE {s.source} TO {s.string}",
}
"""Each step's line, by its action."""


def _step_line(step: Step) -> str:
    return _STEP_LINES[step.action](step)


def _round(entry: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    resolved = entry["resolved"]
    heading = ["Pack", "Digits", "Received by"] if resolved else ["Pack", "Digits"]
    packs = [
        [str(pack["pack"]), pack["digits"], *([name(names, pack["received_by"])] if resolved else [])]
        for pack in entry["packs"]
    ]
    items = [
        [str(item["item"]), item["name"], *([name(names, item["received_by"])] if resolved else [])]
        for item in entry["items"]
    ]
    state = "received" if resolved else "on offer"
    return [
        f"Round {entry['round']} ({state}):",
        *table(heading, packs),
        *table(["Item", "Name", *heading[2:]], items),
    ]


def _final(final: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    rows = []
    for player, account in final.items():
        strings = [
            f"{string or '-'} ({score['total']})"
            for string, score in zip(account["strings"], account["scores"], strict=True)
        ]
        rows.append([name(names, player), *strings, str(account["total"])])
    return ["Final strings (points):", *table(["Player", "String 1", "String 2", "String 3", "Total"], rows)]
