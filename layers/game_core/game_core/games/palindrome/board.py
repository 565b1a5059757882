"""Palindrome Construction drawn for one participant's page (`capabilities.Board`), from their view
alone: their three strings as digit tiles and the digits they have to place (known to them
alone until the end), their items held and used, the bidding table of the latest round (each
pack's digits and each item, their own cards on them, and who received each once the bidding
resolved: the cards of others are never revealed) and, once the match is over, every player's
strings with their scores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game_core.games import svg
from game_core.games.capabilities import Board
from game_core.games.svg import SENT

TILE, STEP, PER_LINE, ROW = 24, 27, 10, 34
"""A digit tile's side, its pitch, the tiles a line holds before the string goes on below."""
TILE_FILL, TILE_LINE = "#fff3c4", "#8a6d00"
LEFT = 96
"""Where tiles start, right of a row's label."""
WIDTH = LEFT + PER_LINE * STEP + 8
CHAR = svg.CHARACTER_WIDTH * 14
"""A character's width, generously, at 14 units: a column is as wide as its longest text."""
RECEIVER_CHARACTERS = 12
"""A receiver's name in the bidding table is cut to this many characters (the words say it whole),
so the drawing stays narrow enough for its text to read on a 390-px phone (issue 30 item 4)."""


def _name(names: Mapping[str, str], player: str | None) -> str:
    return "nobody" if player is None else names.get(player, player)


def _tiles(digits: str, x: float, y: float) -> tuple[list[str], float]:
    """A string's digits as tiles from (x, y), wrapping every `PER_LINE`; and the height used."""
    parts = []
    for index, digit in enumerate(digits):
        line, column = divmod(index, PER_LINE)
        left, top = x + column * STEP, y + line * (TILE + 4)
        parts.append(svg.box(left, top, TILE, TILE, fill=TILE_FILL, stroke=TILE_LINE, rx=3))
        parts.append(svg.text(left + TILE / 2, top + 17, digit, text_anchor="middle", font_weight=700))
    lines = max(1, -(-len(digits) // PER_LINE))
    return parts, lines * (TILE + 4)


def _row(key: str, title: str, label: str, digits: str, note: str, top: float, **data: object) -> tuple[str, float]:
    """A labelled row of tiles (`note` written where there are none), marked as `key`; `data` what
    the page's construction picker reads off it (palindrome-build.js)."""
    tiles, height = _tiles(digits, LEFT, 0)
    body = [svg.text(0, 17, label), *tiles]
    if not digits:
        body.append(svg.text(LEFT, 17, note, fill=svg.QUIET))
    return svg.marked(key, title, body, (LEFT - 30, 10), transform=f"translate(0 {top})", **data), height + 8


def _mine(private: Mapping[str, Any], top: float) -> tuple[list[str], float]:
    parts = [svg.text(0, top + 18, "Your strings (secret until the end)", font_weight=700)]
    top += 28
    for number, string in enumerate(private["strings"], start=1):
        title, label = f"Your string {number}", f"String {number}"
        row, height = _row(
            f"string-{number}", title, label, string, "(empty)", top, data_string=number, data_string_digits=string
        )
        parts.append(row)
        top += height
    row, height = _row(
        "digits", "Your digits to place", "To place", private["digits"], "none", top, data_to_place=private["digits"]
    )
    parts.append(row)
    top += height
    items = private["items"]
    parts.append(svg.text(0, top + 18, "Your items" if items else "Your items: none yet", font_weight=700))
    top += 26
    for index, item in enumerate(items):
        used = "unused" if item["used_in_round"] is None else f"used in round {item['used_in_round']}"
        fill = svg.PAPER if item["used_in_round"] is None else "#e8e8e2"
        body = [
            svg.box(0, 0, WIDTH - 8, 26, fill=fill, stroke=svg.LINE, rx=4),
            svg.text(8, 18, f"{item['name']}: won in round {item['round']}, {used}"),
        ]
        title = f"Your {item['name']} of round {item['round']}"
        held = {"data_held_item": item["name"]} if item["used_in_round"] is None else {}
        moved = f"translate(0 {top})"
        parts.append(svg.marked(f"item-{index}", title, body, (WIDTH - 50, 18), transform=moved, **held))
        top += 30
    return parts, top


def _bid_of(private: Mapping[str, Any], round_number: int) -> Mapping[str, Any] | None:
    return next((entry["bid"] for entry in private.get("bids") or [] if entry["round"] == round_number), None)


def _cards_on(bid: Mapping[str, Any] | None, field: str, number: int) -> str:
    if bid is None:
        return ""
    cards = [str(card["card"]) for card in bid["cards"] if card.get(field) == number]
    garnets = bid["garnets"] if field == "item" and bid["garnet_item"] == number else 0
    return ", ".join(cards) + (f" + {garnets} garnet{'s' if garnets > 1 else ''}" if garnets else "")


def _open_bid(view: Mapping[str, Any], entry: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The bid the participant has sent on the round open for bidding, as it stands (`sent`)."""
    public = view["public"]
    if entry["resolved"] or entry["round"] != public["bidding_round"]:
        return None
    return (view.get(SENT) or {}).get("bid")


def _shown_bid(view: Mapping[str, Any], entry: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The participant's bid on the round `entry`: resolved, from their seat; open, as sent."""
    if entry["resolved"]:
        return _bid_of(view.get("private") or {}, entry["round"])
    return _open_bid(view, entry)


def _row_data(entry: Mapping[str, Any], public: Mapping[str, Any], target: Mapping[str, Any]) -> dict[str, Any]:
    """What the page's script reads off a row of the round open for bidding to offer its cards
    (`data-pack`, `data-digits`; `data-item`, `data-name`, `data-garnet-value`); nothing otherwise."""
    if entry["resolved"] or entry["round"] != public["bidding_round"]:
        return {}
    if "pack" in target:
        return {"data_pack": target["pack"], "data_digits": target["digits"]}
    return {"data_item": target["item"], "data_name": target["name"], "data_garnet_value": public["garnet_value"]}


def _table(view: Mapping[str, Any], names: Mapping[str, str], top: float) -> tuple[list[str], float]:
    public = view["public"]
    entry = public["round_log"][-1]
    state = "received" if entry["resolved"] else "on offer"
    bid = _shown_bid(view, entry)
    mine = ("your cards" if entry["resolved"] else "your bid") if bid is not None else ""
    parts = [svg.text(0, top + 18, f"Bidding table, round {entry['round']} ({state})", font_weight=700)]
    columns = _columns(entry, bid)
    heads = ("Pack", "Digits", mine, "Received by" if entry["resolved"] else "")
    parts += [svg.text(x, top + 40, head, fill=svg.QUIET) for x, head in zip(columns, heads, strict=True)]
    top += 48
    targets = [("pack", f"Pack {pack['pack']}", pack) for pack in entry["packs"]]
    targets += [("item", f"Item {item['item']}", item) for item in entry["items"]]
    for field, label, target in targets:
        digits = target.get("digits", "")
        tiles, _ = _tiles(digits, columns[1], 2) if digits else ([svg.text(columns[1], 20, target["name"])], 0)
        cards = _cards_on(bid, field, target[field])
        body = [svg.text(0, 20, label), *tiles, svg.text(columns[2], 20, cards, fill=svg.YOU, font_weight=700)]
        receiver = _name(names, target["received_by"]) if "received_by" in target else ""
        body.append(svg.text(columns[3], 20, svg.cut(receiver, RECEIVER_CHARACTERS)))
        key, title = f"{field}-{entry['round']}-{target[field]}", f"{label} of round {entry['round']}"
        moved = f"translate(0 {top})"
        data = _row_data(entry, public, target)
        parts.append(svg.marked(key, title, body, (columns[3] - 34, 12), transform=moved, **data))
        top += ROW
    return parts, top


def _columns(entry: Mapping[str, Any], bid: Mapping[str, Any] | None) -> tuple[int, int, int, int]:
    """The bidding table's columns: label, digits, the participant's cards, who received it."""
    said = [_cards_on(bid, "pack", pack["pack"]) for pack in entry["packs"]]
    said += [_cards_on(bid, "item", item["item"]) for item in entry["items"]]
    cards_x = LEFT + 5 * STEP + 8
    return 0, LEFT, cards_x, cards_x + max(100, int(CHAR * max(map(len, said))) + 12)


def _final(
    final: Mapping[str, Any], names: Mapping[str, str], viewer: str | None, top: float
) -> tuple[list[str], float]:
    parts = [svg.text(0, top + 18, "Every player's strings (the match is over)", font_weight=700)]
    top += 28
    for player, account in final.items():
        body = [svg.text(0, 18, f"{_name(names, player)}: {account['total']} points", font_weight=700)]
        y = 26.0
        for string, score in zip(account["strings"], account["scores"], strict=True):
            tiles, height = _tiles(string, LEFT, y)
            body += [svg.text(0, y + 17, f"{score['total']} points"), *tiles]
            if not string:
                body.append(svg.text(LEFT, y + 17, "(empty)", fill=svg.QUIET))
            y += height
        title = "Your strings" if player == viewer else f"{_name(names, player)}'s strings"
        parts.append(svg.marked(f"final-{player}", title, body, (WIDTH - 40, 18), transform=f"translate(0 {top})"))
        top += y + 8
    return parts, top


def draw(view: Mapping[str, Any], names: Mapping[str, str], viewer: str | None) -> Board:
    public, private = view["public"], view.get("private") or {}
    phase = public["phase"] or "the match is over"
    heading = f"Palindrome Construction ({public['rule_set_title']}): {phase}"
    parts = [svg.text(0, 18, f"Palindrome Construction, {public['rule_set_title']}", font_weight=700, font_size=16)]
    parts.append(svg.text(0, 40, phase.capitalize()))
    top = 52.0
    if private:
        drawn, top = _mine(private, top)
        parts += drawn
    if public["round_log"]:
        drawn, top = _table(view, names, top + 8)
        parts += drawn
    if public.get("final"):
        drawn, top = _final(public["final"], names, viewer, top + 8)
        parts += drawn
    width = max(WIDTH, int(CHAR * len(phase)))
    if public["round_log"]:
        entry = public["round_log"][-1]
        right = _columns(entry, _shown_bid(view, entry))[3]
        width = max(width, int(right + CHAR * RECEIVER_CHARACTERS))
    return Board(svg.picture(width, int(top) + 8, heading, parts), _alt(view, names, heading))


def _alt(view: Mapping[str, Any], names: Mapping[str, str], heading: str) -> str:
    public, private = view["public"], view.get("private") or {}
    said = [f"{heading}."]
    if private:
        strings = "; ".join(f"string {n}: {s or 'empty'}" for n, s in enumerate(private["strings"], start=1))
        said.append(f"Your strings: {strings}. Digits to place: {private['digits'] or 'none'}.")
        items = _items_text(private["items"])
        said.append(f"Your items: {items or 'none'}.")
    if public["round_log"]:
        entry = public["round_log"][-1]
        bid = _shown_bid(view, entry)
        packs = "; ".join(
            f"pack {p['pack']} {p['digits']}" + _told(_cards_on(bid, "pack", p["pack"]), p, names)
            for p in entry["packs"]
        )
        items = "; ".join(
            f"item {i['item']} {i['name']}" + _told(_cards_on(bid, "item", i["item"]), i, names) for i in entry["items"]
        )
        said.append(f"Bidding table of round {entry['round']}: {packs}; {items}.")
    for player, account in (public.get("final") or {}).items():
        strings = ", ".join(s or "empty" for s in account["strings"])
        said.append(f"{_name(names, player)}: {strings}, {account['total']} points.")
    return " ".join(said)


def _items_text(items: Sequence[Mapping[str, Any]]) -> str:
    return ", ".join(
        f"{i['name']} (round {i['round']}, {'unused' if i['used_in_round'] is None else 'used'})" for i in items
    )


def _told(cards: str, entry: Mapping[str, Any], names: Mapping[str, str]) -> str:
    said = f", your bid {cards}" if cards else ""
    return said + (f", received by {_name(names, entry['received_by'])}" if "received_by" in entry else "")
