"""Abstrac in plain text (play by e-mail): the line of each move and the text of a view.

    STARTER ada                 (row: the protected player names who lays first)
    LAY 2B 3B 1R                (row: cards laid at the back, in this order)
    PICK 2                      (row: cards taken from the front)
    TAKE 2 / TAKE TO 3R / TAKE 1R 3R   (deal: how many, up to which card, or which cards)

A move's line may leave out its keyword ("2B 3B 1R" in a laying move, "2" in a picking move).
Cards are their number then colour letter (R, Y, G, B), in any case.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from game_core.games.abstrac.models import SUBMISSIONS, Lay, Pick, Starter, Take
from game_core.games.capabilities import Board
from game_core.games.plain_text import LineForm, LineGrammar, Words
from game_core.games.protocol import Model
from game_core.games.text_layout import listing, name, name_list, table, wrapped

CARD = re.compile(r"^[1-6][RYGB]$")
CARD_SHAPE = "a card: a number 1-6 then R, Y, G or B, like 2G"


def _starter(words: Words) -> dict[str, Any]:
    # Only a player of the match: a sign-off ("Cheers", a name) is no starter
    return {"starter": words.player("player")}


def _cards(words: Words) -> list[str]:
    cards = []
    while words.more():
        cards.append(words.shaped("card", CARD, CARD_SHAPE))
    return cards


def _pick(words: Words) -> dict[str, Any]:
    return {"count": words.number("count")}


def _take(words: Words) -> dict[str, Any]:
    """The three ways the text says a take: a count, up TO a card, or the cards themselves."""
    if words.peek() == "TO":
        words.skip("TO")
        return {"last": words.shaped("card", CARD, CARD_SHAPE)}
    if words.count() == 1 and not CARD.match(words.peek()):
        return {"count": words.number("count")}
    return {"cards": _cards(words)}


class AbstracText(LineGrammar):
    models = SUBMISSIONS
    forms = (
        LineForm(("STARTER",), "starter", _starter, "STARTER <player>", "who lays first", short=True),
        LineForm(("LAY",), "lay", lambda words: {"cards": _cards(words)}, "LAY <cards>", "1-3 cards", short=True),
        LineForm(("PICK",), "pick", _pick, "PICK <count>", "1-3 cards from the front", short=True),
        LineForm(("TAKE",), "take", _take, "TAKE <count> | TO <card> | <cards>", "1-3 from the top", short=True),
    )
    examples = {
        "starter": Starter(starter="ada"),
        "lay": Lay(cards=["2B", "3B", "1R"]),
        "pick": Pick(count=2),
        "take": Take(last="3R"),
    }

    def write_text(self, kind: str, submission: Model) -> list[str]:
        if isinstance(submission, Starter):
            return [f"STARTER {submission.starter}"]
        if isinstance(submission, Lay):
            return [" ".join(["LAY", *submission.cards])]
        if isinstance(submission, Pick):
            return [f"PICK {submission.count}"]
        assert isinstance(submission, Take)
        if submission.count is not None:
            return [f"TAKE {submission.count}"]
        if submission.last is not None:
            return [f"TAKE TO {submission.last}"]
        return [" ".join(["TAKE", *(submission.cards or [])])]

    def draw_board(self, view: Mapping[str, Any], names: Mapping[str, str], viewer: str | None) -> Board:
        from game_core.games.abstrac import board  # only a page draws: not at import

        return board.draw(view, names, viewer)

    def render_view(self, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
        public = view["public"]
        render = _row if public["rule_set"] == "row" else _deal
        return "\n".join(render(public, names))


def _row(public: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    stage = {"starter": "choosing the starter", "lay": "laying", "pick": "picking", "over": "the match is over"}
    lines = [f"Abstrac (the row game): {stage[public['stage']]}{_to_move(public, names)}"]
    lines.append(f"Protected player: {name(names, public['protected'])}. Starter: {name(names, public['starter'])}.")
    lines += listing(f"Row, front first: {' '.join(public['row']) or 'empty'}")
    lines += listing(f"Unused cards: {' '.join(public['unused']) or 'none'}")
    if public["lost_on_time"]:
        lines.append(f"{name(names, public['lost_on_time'])} ran out of time and loses.")
    scores = {player: hand["score"] for player, hand in public["taken"].items()}
    lines += ["", "Cards taken:", *_hands(public["taken"], scores, "Score", names)]
    clocks = [
        [name(names, player), _duration(clock["reserve_left"]), _duration(clock["used_on_current_move"])]
        for player, clock in public["clocks"].items()
    ]
    lines += ["", *table(["Clock", "Reserve left", "Used on this move"], clocks)]
    moves = [
        [str(number), name(names, move["player"]), move["kind"], _said(move, names)]
        for number, move in enumerate(public["moves"], start=1)
    ]
    if moves:
        lines += ["", "Moves:", *table(["#", "Player", "Move", "Cards"], moves)]
    return lines


def _deal(public: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    state = "the match is over" if public["over"] else f"deal {public['deal']}"
    lines = [f"Abstrac (the deal game, to {public['target']}): {state}{_to_move(public, names)}"]
    lines.append(f"Starter of this deal: {name(names, public['starter'])}.")
    lines.append(f"Line, top first: {' '.join(public['line']) or 'empty'}")
    if public["lost_on_time"]:
        lines.append(f"{name(names, public['lost_on_time'])} ran out of time and loses.")
    totals = {player: str(total) for player, total in public["totals"].items()}
    lines += ["", "This deal:", *_hands(public["taken"], totals, "Total", names)]
    deals = [
        [str(record["number"]), name(names, player), str(account["base"]), str(account["score"])]
        for record in public["deals"]
        for player, account in record["players"].items()
    ]
    if deals:
        lines += ["", "Finished deals:", *table(["Deal", "Player", "Points", "Score"], deals)]
    clocks = [
        [name(names, player), str(clock["periods_left"]), _duration(clock["used_on_current_move"])]
        for player, clock in public["clocks"].items()
    ]
    lines += ["", *table(["Clock", "Periods left", "Used on this move"], clocks)]
    moves = [
        [name(names, move["player"]), " ".join(move["cards"]) or "-"]
        for move in public["moves"]
        if move["deal"] == public["deal"]
    ]
    if moves:
        lines += ["", "Moves of this deal:", *table(["Player", "Took"], moves)]
    return lines


def _to_move(public: Mapping[str, Any], names: Mapping[str, str]) -> str:
    return "." if public["to_move"] is None else f", {name(names, public['to_move'])} to move."


def _hands(hands: Mapping[str, Any], standing: Mapping[str, str], heading: str, names: Mapping[str, str]) -> list[str]:
    """Each player's cards, points and `standing` (the row's score, the deal's running total),
    then the combinations their points come from."""
    rows = [
        [name(names, player), " ".join(hand["cards"]) or "-", str(hand["points"]), standing[player]]
        for player, hand in hands.items()
    ]
    lines = table(["Player", "Cards", "Points", heading], rows)
    for player, hand in hands.items():
        combinations = [f"{combo['name']} ({combo['points']})" for combo in hand["combinations"]]
        if combinations:
            lines += wrapped(f"{name(names, player)}: {', '.join(combinations)}")
    return lines


def _said(move: Mapping[str, Any], names: Mapping[str, str]) -> str:
    if move["kind"] == "starter":
        return name_list(names, [move["starter"]] if move["starter"] else [])
    played = " ".join(move["cards"]) or "-"
    return f"{played} (played by the service)" if move["by_service"] else played


def _duration(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    return f"{hours}h{rest // 60:02d}"
