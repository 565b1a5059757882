"""Puzzler's Clubs drawn on the player's page (`capabilities.Board`), from the participant's view alone.

Top to bottom: the teams with each participant's hole card and the community card of the latest
round dealt (all public: never clubs); the open Phase A's three puzzles and their clocks; the open
Phase B's cards to build from, the viewer's own draft (each card with its priority, lowered ones
and tokens named) and the draft's public reveal; the viewer's Club Tokens, used or not; each
finished round's ranking with the viewer's hand, points and guessing total; at the end the
standings. Cards are drawn as cards: rank, suit symbol, and a colour per suit (four colours, so a
club is never read as a spade). Nothing of another participant's seat is in the view, nor here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from game_core.games import svg
from game_core.games.capabilities import Board
from game_core.games.text_layout import name, name_list, whose

WIDTH = 388
"""The drawing's width: with its margins 404 units, drawn 372 px wide in a 390-px phone's column,
so its smallest text (12 units) shows at 11 px (issue 30 item 4)."""
SMALL = 12
CARD_WIDTH, CARD_HEIGHT = 34, 48
STEP = CARD_WIDTH + 10
"""From one card to the next in a row (a label under a card, "×6 out", is 43 units wide)."""
PER_ROW = WIDTH // STEP
LABELLED_ROW = CARD_HEIGHT + 28
"""A row of cards with a label under each."""
SUITS = {"C": ("\u2663", "#1e6b2e", "clubs"), "S": ("\u2660", "#1a1a1a", "spades"),
         "H": ("\u2665", "#b3261e", "hearts"), "D": ("\u2666", "#0b4f8a", "diamonds")}  # fmt: skip
"""Each suit's symbol, colour (each at least 6:1 on white) and name."""
RANK_NAMES = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
OUT = "#8a1c1c"
"""A discarded card's cross and label."""
DEAL_LEFT = 88
"""The teams' rows start right of the community card."""
TEAM_ROW = CARD_HEIGHT + 24
"""A team's row: its name, then its player's and guest's cards with their names beside."""
NAME_CHARACTERS = 14
"""A name beside a card is cut to this many characters (the deal's words say it whole)."""
LINE = 18


def card_words(card: str) -> str:
    """ "AS" as "ace of spades", "TH" as "10 of hearts"."""
    return f"{RANK_NAMES.get(card[0], card[0])} of {SUITS[card[1]][2]}"


def card(x: float, y: float, code: str, label: str = "") -> str:
    """A card at (x, y): its rank in the corner, its suit's symbol in the middle, `label` under it."""
    symbol, colour, _ = SUITS[code[1]]
    shown = "10" if code[0] == "T" else code[0]
    return (
        f'<g transform="translate({x} {y})">'
        + svg.box(0, 0, CARD_WIDTH, CARD_HEIGHT, fill=svg.PAPER, stroke=svg.LINE, rx=4)
        + svg.text(4, 15, shown, fill=colour, font_weight=700)
        + svg.text(CARD_WIDTH / 2, 40, symbol, fill=colour, font_size=22, text_anchor="middle")
        + (svg.text(CARD_WIDTH / 2, CARD_HEIGHT + 13, label, font_size=SMALL, text_anchor="middle") if label else "")
        + "</g>"
    )


def _title(words: str, size: int = 14) -> tuple[list[str], int]:
    """A part's title, bold, in lines that fit the drawing: its texts, and where what follows starts."""
    lines = svg.wrap(words, WIDTH, size)
    texts = [svg.text(0, 14 + index * LINE, line, font_size=size, font_weight=700) for index, line in enumerate(lines)]
    return texts, 22 + (len(lines) - 1) * LINE


class _Sheet:
    """The drawing as it grows downwards, and its words."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.words: list[str] = []
        self.y = 0

    def heading(self, words: str) -> None:
        self.parts.append(svg.text(0, self.y + 18, words, font_size=15, font_weight=700))
        self.y += 26

    def section(self, key: str, title: str, body: list[str], height: int, said: str, **data: object) -> None:
        """A marked part of the drawing `height` tall, drawn in its own coordinates from the top
        (`data`: attributes the page's script reads, `data-*`)."""
        moved = f"translate(0 {self.y})"
        self.parts.append(svg.marked(key, title, body, (WIDTH - 30, 12), transform=moved, **data))
        self.words.append(said)
        self.y += height

    def cards(self, cards: Sequence[str], labels: Sequence[str] = ()) -> tuple[list[str], int]:
        """Cards in rows from the left, each with its label: the elements and their height."""
        labelled = bool(labels)
        row_height = LABELLED_ROW if labelled else CARD_HEIGHT + 8
        body = [
            card((index % PER_ROW) * STEP, (index // PER_ROW) * row_height, code, labels[index] if labelled else "")
            for index, code in enumerate(cards)
        ]
        return body, row_height * -(-len(cards) // PER_ROW)


def draw(view: Mapping[str, Any], names: Mapping[str, str], viewer: str | None) -> Board:
    public, private = view["public"], view.get("private")
    sheet = _Sheet()
    heading = f"Puzzler's Clubs: {'phase ' + public['phase'] if public['phase'] else 'the match is over'}"
    sheet.heading(heading)
    if public["rounds"]:
        _deal(sheet, public, names)
    if private and "puzzles" in private:
        _puzzles(sheet, public, private)
    if private and public["round_b"] is not None:
        _building(sheet, public, private)
    if private:
        _tokens(sheet, private)
    for shown in public["rounds"]:
        if "ranking" in shown:
            _ranked(sheet, shown, private, names)
    if public.get("final"):
        _final(sheet, public["final"], names, viewer)
    return Board(svg.picture(WIDTH, sheet.y, heading, sheet.parts), " ".join([f"{heading}.", *sheet.words]))


def _deal(sheet: _Sheet, public: Mapping[str, Any], names: Mapping[str, str]) -> None:
    """The latest round's community card, and each team with its participants' hole cards."""
    shown = public["rounds"][-1]
    number, holes = shown["round"], shown["holes"]
    title = f"Round {number}'s cards: the community card and each team's hole cards"
    body = [svg.text(0, 14, f"Round {number}'s cards", font_weight=700), card(14, 40, shown["community"], "community")]
    said = [f"Round {number}: the community card is the {card_words(shown['community'])}. Teams and hole cards:"]
    for index, team in enumerate(public["teams"]):
        top = 22 + index * TEAM_ROW
        body.append(svg.text(DEAL_LEFT, top + 12, f"Team {index + 1}", font_size=SMALL, font_weight=700))
        for column, who in enumerate((team["player"], team["guest"])):
            x = DEAL_LEFT + column * (WIDTH - DEAL_LEFT) // 2
            body.append(card(x, top + 18, holes[who]))
            body.append(
                svg.text(x + CARD_WIDTH + 4, top + 46, svg.cut(name(names, who), NAME_CHARACTERS), font_size=SMALL)
            )
        said.append(
            f"team {index + 1}, {name(names, team['player'])} ({card_words(holes[team['player']])})"
            f" with {name(names, team['guest'])} ({card_words(holes[team['guest']])});"
        )
    height = 22 + len(public["teams"]) * TEAM_ROW
    out = " ".join([shown["community"], *holes.values()])  # what the draft cannot take (pickers.js)
    sheet.section(f"deal-{number}", title, body, height, " ".join(said).rstrip(";") + ".", data_out_of_draft=out)


def _puzzles(sheet: _Sheet, public: Mapping[str, Any], private: Mapping[str, Any]) -> None:
    number = public["round_a"]
    kind = next(r["puzzle_type"] for r in public["rounds"] if r["round"] == number).replace("_", " ")
    title = f"Round {number}'s puzzles ({kind}): your clocks"
    body, y = _title(title)
    said = []
    for puzzle, status in private["puzzles"].items():
        token = f"{number}.{puzzle}"
        if status == "solved":
            state = f"solved: token {token} is {private['tokens'][token]} s"
        elif status == "sent":
            sent = datetime.fromtimestamp(private["puzzles_sent_ms"][puzzle] / 1000, UTC)
            state = f"sent {sent:%H:%M:%S} UTC, clock running"
        else:
            state = "not asked yet: its clock starts when you ask"
        colour = svg.YOU if status == "solved" else svg.INK
        for line in svg.wrap(f"Puzzle {puzzle}: {state}", WIDTH, 14):
            body.append(svg.text(0, y + 14, line, fill=colour))
            y += LINE
        said.append(f"puzzle {puzzle}, {state}")
    sheet.section(f"puzzles-{number}", title, body, y + 4, f"{title}: {'; '.join(said)}.")


def _building(sheet: _Sheet, public: Mapping[str, Any], private: Mapping[str, Any]) -> None:
    """The open Phase B: the cards to build from, the viewer's draft and the draft's reveal."""
    number = public["round_b"]
    usable, usable_height = sheet.cards(private["usable"])
    title = f"Round {number}: build your hand (1 to 5 cards) from these"
    words = ", ".join(card_words(code) for code in private["usable"])
    body, top = _title(title)
    body.append(f'<g transform="translate(0 {top})">{"".join(usable)}</g>')
    usable_words = " ".join(private["usable"])  # the build picker's cards (clubs.js)
    sheet.section(f"build-{number}", title, body, top + usable_height, f"{title}: {words}.", data_usable=usable_words)
    mine = next((r for r in private["rounds"] if r["round"] == number), None)
    if mine is not None and "draft" in mine:
        _draft(sheet, number, mine["draft"])
    shown = next(r for r in public["rounds"] if r["round"] == number)
    if "draft" in shown:
        _reveal(sheet, number, shown["draft"])


def _draft(sheet: _Sheet, number: int, draft: Mapping[str, Any]) -> None:
    picks = sorted(draft["picks"], key=lambda pick: pick["priority"])
    lowered = set(draft["lowered"])
    labels = [
        f"{p['priority']}" + ("\u2193" if p["priority"] in lowered else "") + (f" {p['token']}" if p["token"] else "")
        for p in picks
    ]
    cards, height = sheet.cards([p["card"] for p in picks], labels)
    title = f"Round {number}: your draft, by priority (1 first)"
    said = [
        f"{card_words(p['card'])} priority {p['priority']}"
        + (", lowered by 1" if p["priority"] in lowered else "")
        + (f", token {p['token']}" if p["token"] else "")
        for p in picks
    ]
    body, top = _title(title)
    body.append(f'<g transform="translate(0 {top})">{"".join(cards)}</g>')
    sheet.section(f"draft-{number}", title, body, top + height, f"{title}: {'; '.join(said)}.")


def _reveal(sheet: _Sheet, number: int, reveal: Sequence[Mapping[str, Any]]) -> None:
    """Each card drafted: how many drafted it; a discarded one crossed out, "out"."""
    cards, height = sheet.cards(
        [c["card"] for c in reveal], [f"\u00d7{c['drafted']}" + ("" if c["given"] else " out") for c in reveal]
    )
    for index, shown in enumerate(reveal):
        if not shown["given"]:
            x, y = (index % PER_ROW) * STEP, (index // PER_ROW) * LABELLED_ROW
            cards.append(svg.line(x, y, x + CARD_WIDTH, y + CARD_HEIGHT, stroke=OUT, stroke_width=3))
    title = f"Round {number}'s draft revealed (\u00d7 drafted; crossed out: discarded)"
    said = (
        "; ".join(
            f"{card_words(c['card'])} drafted {c['drafted']}, {'given' if c['given'] else 'discarded'}" for c in reveal
        )
        or "nobody drafted"
    )
    body, top = _title(title, SMALL)
    body.append(f'<g transform="translate(0 {top})">{"".join(cards)}</g>')
    sheet.section(f"reveal-{number}", f"Round {number}'s draft revealed", body, top + height, f"{title}: {said}.")


def _tokens(sheet: _Sheet, private: Mapping[str, Any]) -> None:
    tokens, used = private["tokens"], set(private["used_tokens"])
    title = "Your Club Tokens (seconds; a club drafted with a lower one wins)"
    body, top = _title(title, SMALL)
    per_row = 3
    for index, (token, value) in enumerate(tokens.items()):
        x, y = (index % per_row) * (WIDTH // per_row), top + (index // per_row) * 30
        spent = token in used
        body.append(
            svg.box(x, y, WIDTH // per_row - 6, 24, rx=12, fill="#eeeeea" if spent else "#e6f0f8", stroke=svg.LINE)
        )
        words = f"{token}: {value} s" + (" used" if spent else "")
        body.append(svg.text(x + 8, y + 17, words, font_size=SMALL, fill=svg.QUIET if spent else svg.INK))
    rows = -(-len(tokens) // per_row)
    listed = ", ".join(f"{t} worth {v} s{' (used)' if t in used else ''}" for t, v in tokens.items()) or "none yet"
    unused = " ".join(f"{t}={v}" for t, v in tokens.items() if t not in used)  # a club's choices (pickers.js)
    said = f"Your Club Tokens: {listed}."
    sheet.section("tokens", "Your Club Tokens", body, top + max(rows, 1) * 30, said, data_unused=unused)


def _ranked(
    sheet: _Sheet, shown: Mapping[str, Any], private: Mapping[str, Any] | None, names: Mapping[str, str]
) -> None:
    """A finished round: its hands' ranking, and the viewer's own hand, points and guessing total."""
    number = shown["round"]
    ranking = "; ".join(f"{p['place']}. {name_list(names, p['participants'])}" for p in shown["ranking"])
    title = f"Round {number}: hands ranked"
    body = [svg.text(0, 14, title, font_weight=700)]
    y = 32
    for line in svg.wrap(ranking, WIDTH, SMALL):
        body.append(svg.text(0, y, line, font_size=SMALL))
        y += LINE
    said, height = f"{title}: {ranking}.", y - 10
    mine = next((r for r in (private or {}).get("rounds", []) if r["round"] == number and "hand" in r), None)
    if mine is not None:
        cards, cards_height = sheet.cards(mine["hand"])
        built = " (built for you)" if mine["built_by_service"] else ""
        score = f"Your hand{built}: {mine['hand_points']} points; guessing {mine['guessing_total']:+d}"
        body += [
            svg.text(0, y + 6, score, font_size=SMALL),
            f'<g transform="translate(0 {y + 14})">{"".join(cards)}</g>',
        ]
        said += f" {score}: {', '.join(card_words(code) for code in mine['hand'])}."
        height = y + 14 + cards_height
    sheet.section(f"result-{number}", title, body, height, said)


def _final(sheet: _Sheet, final: Mapping[str, Any], names: Mapping[str, str], viewer: str | None) -> None:
    title = "The end: teams' scores (player + guest)"
    body = [svg.text(0, 14, title, font_weight=700)]
    said = []
    for index, standing in enumerate(final["standings"]):
        line = f"{standing['place']}. {whose(names, standing['player'], viewer)} team: {standing['score']}"
        body.append(svg.text(0, 34 + index * LINE, line))
        said.append(line)
    ends = f"To the Finals: {name(names, final['finals'])}. Death Match: {name_list(names, final['death_match'])}."
    lines = svg.wrap(ends, WIDTH, SMALL)
    below = 34 + len(final["standings"]) * LINE
    body += [svg.text(0, below + index * LINE, line, font_size=SMALL) for index, line in enumerate(lines)]
    sheet.section("final", "The end", body, below + 10 + len(lines) * LINE, f"{title}: {'; '.join(said)}. {ends}")
