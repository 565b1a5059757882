"""Abstrac drawn for one participant's page (`capabilities.Board`), from their view (all public:
Abstrac has no secret): the row (or the deal's line) as cards in their colours, the front (the
next card taken) on the left and each card already taken left as an empty slot so the others
keep their place; the cards not yet laid (`row`); each player's taken cards with their
combinations and score; the move clock of each, and whose move it is.

What the page's script (`static/abstrac.js`) needs to make a move on the drawing is written on it:
each card of the row or line carries `data-card` (its code), and while cards are taken from its
front a frame over each of the first three carries `data-take` (how many a take up to that card
is) and `data-card`; while cards are laid, each card not yet laid is a group carrying `data-lay`
(its code).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game_core.games import svg
from game_core.games.capabilities import Board

CARD_W, CARD_H, PITCH, PER_LINE = 34, 48, 38, 9
COLOURS = {
    "R": ("#b71c1c", "#ffffff"),
    "Y": ("#f5d000", "#1a1a1a"),
    "G": ("#1b5e20", "#ffffff"),
    "B": ("#0d47a1", "#ffffff"),
}
"""Each colour's card face and the ink on it (at least 4.5:1 each)."""
COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
WIDTH = PER_LINE * PITCH
CHAR = svg.CHARACTER_WIDTH * 14
NAME_CHARACTERS = 20
"""A player's name over their cards is cut to this many characters, so that with "(you) (to move):"
it fits the drawing's width (the element's title and the words say it whole)."""


def _name(names: Mapping[str, str], player: str | None) -> str:
    return "nobody" if player is None else names.get(player, player)


def card_words(card: str) -> str:
    return f"{COLOUR_NAMES[card[1]]} {card[0]}"


def _card(card: str, x: float, y: float) -> list[str]:
    face, ink = COLOURS[card[1]]
    return [
        svg.box(x, y, CARD_W, CARD_H, fill=face, stroke=svg.INK, rx=4),
        svg.text(x + CARD_W / 2, y + 24, card[0], text_anchor="middle", font_size=20, font_weight=700, fill=ink),
        svg.text(x + CARD_W / 2, y + 41, card[1], text_anchor="middle", font_size=11, fill=ink),
    ]


def _cards(cards: Sequence[str], x: float, y: float, laid: bool = False) -> tuple[list[str], float]:
    """Cards in lines of `PER_LINE`; each one a group carrying `data-lay` when `laid` (to be laid)."""
    parts = []
    for index, card in enumerate(cards):
        line, column = divmod(index, PER_LINE)
        drawn = _card(card, x + column * PITCH, y + line * (CARD_H + 6))
        parts += [f"<g{svg.attributes(data_lay=card)}>{''.join(drawn)}</g>"] if laid else drawn
    return parts, max(1, -(-len(cards) // PER_LINE)) * (CARD_H + 6)


def _strip(slots: Sequence[str | None], label: str, top: float, takes: int) -> tuple[list[str], float]:
    """The row or line: each slot at its own place, a taken one empty; each slot marked. Over the
    first `takes` cards at the front (0 or 3), an unmarked frame saying how many a take up to that
    card is (unmarked: a card that comes to the front has not changed)."""
    parts = [svg.text(0, top + 16, label, font_weight=700)]
    top += 24
    frames: list[str] = []
    for index, card in enumerate(slots):
        line, column = divmod(index, PER_LINE)
        x, y = column * PITCH, top + line * (CARD_H + 6)
        if card is None:
            body = [svg.box(x, y, CARD_W, CARD_H, fill="none", stroke=svg.LINE, stroke_dasharray="3 3", rx=4)]
            title = f"place {index + 1}: taken"
        else:
            body, title = _card(card, x, y), f"place {index + 1}: {card_words(card)}"
            if len(frames) < takes:
                frame = svg.box(x, y, CARD_W, CARD_H, fill="none", rx=4, class_="take")
                frames.append(f"<g{svg.attributes(data_take=len(frames) + 1, data_card=card)}>{frame}</g>")
        parts.append(svg.marked(f"slot-{index}", title, body, (x + 2, y - 2), data_card=card))
    return parts + frames, top + max(1, -(-len(slots) // PER_LINE)) * (CARD_H + 6)


def _hours(seconds: int) -> str:
    hours, rest = divmod(max(0, seconds), 3600)
    return f"{hours} h {rest // 60} min" if rest // 60 else f"{hours} h"


def _clock(public: Mapping[str, Any], player: str) -> str:
    clock = public["clocks"][player]
    used = f"; {_hours(clock['used_on_current_move'])} used now" if clock["used_on_current_move"] else ""
    if public["rule_set"] == "row":
        return f"reserve {_hours(clock['reserve_left'])} left, {_hours(clock['move_seconds'])} a move{used}"
    return f"{clock['periods_left']} periods of {_hours(clock['period_seconds'])} left{used}"


def _score(public: Mapping[str, Any], player: str) -> str:
    taken = public["taken"][player]
    if public["rule_set"] == "row":
        return f"score {taken['points_over_cards']} = {taken['score_decimal']}"
    return f"{taken['points']} points this deal, {public['totals'][player]} in total of {public['target']}"


def _player(
    public: Mapping[str, Any], player: str, names: Mapping[str, str], you: bool, top: float
) -> tuple[str, float]:
    taken = public["taken"][player]
    who = svg.cut(_name(names, player), NAME_CHARACTERS)
    who = f"{who} (you)" if you else who
    moving = " (to move)" if public["to_move"] == player else ""
    body = [
        svg.text(0, 18, f"{who}{moving}:", font_weight=700),
        svg.text(0, 38, _score(public, player), font_weight=700),
    ]
    body.append(svg.text(0, 58, f"Clock: {_clock(public, player)}", fill=svg.QUIET))
    cards, height = _cards(taken["cards"], 0, 68)
    body += cards if taken["cards"] else [svg.text(0, 86, "No cards taken yet.", fill=svg.QUIET)]
    y = 68 + (height if taken["cards"] else 26) + 4
    for combination in taken["combinations"]:
        body.append(svg.text(0, y + 14, f"{combination['name']}: {combination['points']} points"))
        y += 20
    title = "Your cards and clock" if you else f"{_name(names, player)}'s cards and clock"
    return svg.marked(f"player-{player}", title, body, (WIDTH - 36, 18), transform=f"translate(0 {top})"), y + 10


def _slots(public: Mapping[str, Any]) -> tuple[list[str | None], str]:
    if public["rule_set"] == "row":
        laid = public["laid"]
        gone = len(laid) - len(public["row"])
        return [None] * gone + list(laid[gone:]), "The row, front (taken next) first"
    line = public["line"]
    gone = sum(public["taken"][p]["card_count"] for p in public["players"])
    return [None] * gone + list(line), f"Deal {public['deal']}: the line, top (taken next) first"


def draw(view: Mapping[str, Any], names: Mapping[str, str], viewer: str | None) -> Board:
    public = view["public"]
    heading = f"Abstrac ({'the row game' if public['rule_set'] == 'row' else 'deal by deal'})"
    parts = [svg.text(0, 18, heading, font_weight=700, font_size=16)]
    mover = public["to_move"]
    to_move = "you" if mover == viewer else _name(names, mover)
    parts.append(svg.text(0, 40, f"To move: {to_move}" if mover else "No move is awaited."))
    slots, label = _slots(public)
    drawn, top = _strip(slots, label, 52, 3 if mover and public.get("stage", "pick") == "pick" else 0)
    parts += drawn
    unused = public.get("unused") or []
    if public["rule_set"] == "row" and unused:
        parts.append(svg.text(0, top + 20, "Not yet laid", font_weight=700))
        cards, height = _cards(unused, 0, top + 28, laid=public["stage"] == "lay")
        parts += cards
        top += 28 + height
    for player in public["players"]:
        drawn_player, height = _player(public, player, names, player == viewer, top + 8)
        parts.append(drawn_player)
        top += 8 + height
    longest = max(len(f"Clock: {_clock(public, p)}") for p in public["players"])
    width = max(WIDTH, int(CHAR * longest))
    return Board(svg.picture(width, int(top), heading, parts), _alt(public, names, slots, label))


def _alt(public: Mapping[str, Any], names: Mapping[str, str], slots: Sequence[str | None], label: str) -> str:
    shown = ", ".join(card_words(card) for card in slots if card is not None) or "empty"
    said = [f"{label}: {shown}."]
    if public["rule_set"] == "row":
        said.append("A player's score is their points over the cards they took.")
    if public["rule_set"] == "row" and public.get("unused"):
        said.append(f"Not yet laid: {', '.join(card_words(card) for card in public['unused'])}.")
    for player in public["players"]:
        taken = public["taken"][player]
        cards = ", ".join(card_words(card) for card in taken["cards"]) or "none"
        combos = "; ".join(f"{c['name']} {c['points']} points" for c in taken["combinations"]) or "no combination"
        said.append(
            f"{_name(names, player)}: {_score(public, player)}; cards taken: {cards}; {combos}; "
            f"clock: {_clock(public, player)}."
        )
    mover = public["to_move"]
    said.append(f"To move: {_name(names, mover)}." if mover else "No move is awaited.")
    return " ".join(said)
