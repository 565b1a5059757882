"""What a game may do beyond the protocol (`protocol.Game`), each a protocol the service checks for
with `isinstance`: answer its immediate actions in text (`AnswersInText`), host guests
(`HostsGuests`, with `Team`), reveal some kinds to everyone (`RevealsMoves`), take immediate
actions (`ActsAtOnce`, `Acted`), draw its views for mail (`DrawsViews`, `Picture`, `Drawing`)
and its board for the player's page (`DrawsBoard`, `Board`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from game_core.games.protocol import Model


@runtime_checkable
class AnswersInText(Protocol):
    """The grammar of a game that `ActsAtOnce` and reads its actions from text too: `read_text`
    gives them as `TextMove`s with `action` set, `write_text` and `text_help` take their kinds, and
    each action's answer is rendered as plain text for the sender's mail."""

    def render_answer(self, kind: str, answer: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
        """The answer `act` gave to an action of `kind`, as lines a person reads (players by
        display name)."""


@dataclass(frozen=True)
class Team:
    """A player and the guests they brought (`HostsGuests`)."""

    player: str
    guests: tuple[str, ...]


def teams(participants: Sequence[str], guests_per_player: int) -> tuple[Team, ...]:
    """The teams of a match's participants, listed in team order: each player, then their guests."""
    size = 1 + guests_per_player
    return tuple(
        Team(participants[start], tuple(participants[start + 1 : start + size]))
        for start in range(0, len(participants), size)
    )


@runtime_checkable
class HostsGuests(Protocol):
    """A game whose players each bring `guests_per_player` guests: the guests are participants
    (they act, they are told things privately, they score for their player's team) but only
    players are seated in the match count and the garnet ledger. `setup` receives every
    participant in team order (`teams`); a guest holds garnets only while the match runs, and
    what a guest holds returns to their player when it ends (the match layer's part)."""

    @property
    def guests_per_player(self) -> int: ...


@runtime_checkable
class RevealsMoves(Protocol):
    """A game whose rules show everyone some kinds of submission once their phase resolves
    (Abstrac's moves, made in the open; Domino's placements, on boards revealed every round):
    their sealed receipts are opened in the public announcement. Every other kind is opened to
    its sender alone, and in the final record."""

    @property
    def revealed_kinds(self) -> frozenset[str]: ...


@dataclass(frozen=True)
class Acted:
    """What an immediate action did: the new state, the answer to the sender alone, and the
    garnets it moves (participant -> change). Only the sender's change may be negative: the match
    layer refuses the action when the sender does not hold that many."""

    state: Any
    answer: dict[str, Any]
    garnets: dict[str, int] = field(default_factory=dict)


@runtime_checkable
class ActsAtOnce(Protocol):
    """A game that also takes immediate actions inside an open phase (besides the sealed
    submissions resolved at its deadline): each is applied when it arrives, in arrival order, and
    answered at once to its sender only. `at_ms` is its arrival on the match clock (milliseconds
    since the epoch), recorded with it so that a replay applies it exactly as it happened."""

    @property
    def actions(self) -> Mapping[str, type[Model]]:
        """The pydantic model of each action kind."""

    def act(self, state: Any, actor: str | None, kind: str, action: Model, at_ms: int) -> Acted:
        """Apply one action of `actor` (None: the host), or raise `Illegal` with every reason.
        The match layer has checked that a participant's kind is in the open phase's `actions`
        and that the sender holds what the action takes from them."""


@dataclass(frozen=True)
class Picture:
    """One file of a drawing: its name, its MIME type and its bytes."""

    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True)
class Drawing:
    """Pictures of a view, attached to the mail that carries the view; `caption` says in the
    mail's text what they show."""

    caption: str
    pictures: tuple[Picture, ...]


@runtime_checkable
class DrawsViews(Protocol):
    """The grammar of a game whose views are also drawn (Domino Auction's boards): a mail that
    carries a view attaches its drawing, made from that view alone."""

    def draw_view(self, view: Mapping[str, Any], names: Mapping[str, str]) -> Drawing | None:
        """The pictures of a view this game's `view` returned (None: nothing to draw)."""


@dataclass(frozen=True)
class Board:
    """The game as one participant sees it, drawn for their page (issue 30), from their view alone.

    `svg` is one `<svg>` element, well-formed XML: `role="img"`, a `<title>` first, a `viewBox`
    and no width or height (it scales to its container's width; the page scrolls a wide one),
    no script, no `style` element or attribute (presentation attributes like `fill` are fine).
    An element whose change the page marks carries `data-mark` (a key stable across visits:
    "crate-ada", "row-card-3R"), a `<title>` child naming it in words and `data-new="x y"`, where
    in its own coordinates the page writes "new" beside it; its markup (attributes and children)
    is its state, so a game lays marked elements out in a stable order. Marked elements do not nest.
    `alt` says in words what the drawing shows (the page puts it beside the drawing for readers
    that cannot see it). `draw_board` is told whose view it draws beside the view (`viewer`, a
    parameter the first sketch of this protocol lacked): a board speaks to its reader ("your
    crate"), never of them in the third person, and a view alone does not say whose it is.
    `more`: further `<svg>` elements of the same kind (a game of many boards), which the page lays
    after `svg` in a grid of columns (page.css): two a row at 1280 px, one on a phone. Marked keys
    stay unique across all of them."""

    svg: str
    alt: str
    more: tuple[str, ...] = ()


@runtime_checkable
class DrawsBoard(Protocol):
    """The grammar of a game drawn on the player's page: its drawing lives in the game's own
    `board` module, imported only when a page draws it."""

    def draw_board(self, view: Mapping[str, Any], names: Mapping[str, str], viewer: str | None) -> Board | None:
        """The board of the view this game's `view` returned for `viewer` (None: nothing to draw)."""
