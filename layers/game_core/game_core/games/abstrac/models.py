"""Settings, state and submissions of Abstrac (both rule sets)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from game_core.games.abstrac.cards import DECK, Card, LineCard, sorted_cards
from game_core.games.abstrac.clocks import PeriodClock, ReserveClock
from game_core.games.protocol import PARTICIPANT_FORMAT, GameSettings, Model, PlayerRef

YEAR = 366 * 86_400
"""The longest clock a host may set: a deadline stays a date (more is refused when the match is
created, naming the setting)."""
MOST_PERIODS = 100
"""The most periods a player may start with (at a year each, still a date)."""


class AbstracSettings(GameSettings):
    """`rule_set` "row" (default: Death Match 12) or "deal" (the original deal-by-deal game).

    Fields of the other rule set are ignored.
    """

    rule_set: Literal["row", "deal"] = Field(
        default="row",
        description="row: Death Match 12 (lay all 24 cards in a row, then take them from its front); "
        "deal: the original game (deals of 24 cards taken from a line, until a target score).",
    )

    # row
    protected: str | None = Field(
        default=None,
        json_schema_extra={"format": PARTICIPANT_FORMAT},
        description="Row: the protected player, who names who lays first and wins the last tie-break "
        "(none: the first player).",
    )
    """The protected player (the non-EC, apple.singer in the text): names the starter and wins the
    last tie-break. Default: the first player."""
    move_seconds: int = Field(
        default=86400, gt=0, le=YEAR, description="Row: seconds each move has (86400: a day; 3600: an hour)."
    )
    reserve_seconds: int = Field(
        default=172800,
        ge=0,
        le=YEAR,
        description="Row: each player's reserve in seconds, eaten by moves over their time (172800: two days).",
    )
    on_empty_reserve: Literal["lose", "smallest_move"] = Field(
        default="lose",
        description="Row: a player whose reserve runs out loses (lose), or the service plays the smallest "
        "legal move for them (smallest_move).",
    )

    # deal
    first_starter: str | None = Field(
        default=None,
        json_schema_extra={"format": PARTICIPANT_FORMAT},
        description="Deal: who starts the first deal (none: the first player); the starter then alternates.",
    )
    """Who starts the first deal. Default: the first player."""
    target: Literal[400, 500, 600] = Field(
        default=400, description="Deal: the match ends after a deal in which someone reaches this total."
    )
    period_seconds: int = Field(
        default=86400, gt=0, le=YEAR, description="Deal: one period of a player's clock, in seconds (86400: a day)."
    )
    start_periods: int = Field(
        default=5,
        ge=1,
        le=MOST_PERIODS,
        description="Deal: periods each player holds at the start (one more at each later deal).",
    )
    """Periods each player holds at the start (a move's whole time is its periods: at least one)."""
    deal_lines: list[list[LineCard]] | None = Field(
        default=None, description="Deal: lines of the 24 cards fixed by the host, one a deal (none: shuffled)."
    )
    """The host's fixed lines, top (first taken) first: deal k uses line k; deals beyond the list
    are shuffled with the match's random source."""

    @field_validator("deal_lines")
    @classmethod
    def _lines_are_decks(cls, lines: list[list[str]] | None) -> list[list[str]] | None:
        for index, line in enumerate(lines or [], start=1):
            missing = [card for card in DECK if card not in line]
            doubled = sorted_cards([card for card in DECK if line.count(card) > 1])
            if missing or doubled or len(line) != len(DECK):
                problems = []
                if missing:
                    problems.append(f"missing {', '.join(missing)}")
                if doubled:
                    problems.append(f"more than once: {', '.join(doubled)}")
                if not problems:
                    problems.append(f"{len(line)} cards")
                detail = "; ".join(problems)
                raise ValueError(f"deal line {index} must hold the 24 cards once each ({detail})")
        return lines


class Starter(Model):
    """Row: the protected player names who lays first."""

    starter: PlayerRef


class Lay(Model):
    """Row: 1-3 unused cards, laid at the back of the row in the order listed."""

    cards: list[Card]


class Pick(Model):
    """Row: take this many cards (1-3) from the front of the row."""

    count: int


class Take(Model):
    """Deal: take 1-3 cards from the top of the line, said one of the text's three ways: how many
    (`count`), the last card taken (`last`), or all the cards taken (`cards`, in any order)."""

    count: int | None = None
    last: Card | None = None
    cards: list[Card] | None = None

    @model_validator(mode="after")
    def _said_one_way(self) -> Take:
        said = [name for name in ("count", "last", "cards") if getattr(self, name) is not None]
        if len(said) != 1:
            raise ValueError(f"say the take one way: count, last or cards (got {', '.join(said) or 'none'})")
        return self


class RowMove(Model):
    player: str
    kind: Literal["starter", "lay", "pick"]
    starter: str | None = None
    cards: list[str] = []
    elapsed: int = 0
    extension: int = 0
    overtime: int = 0
    reserve_after: int = 0
    by_service: bool = False
    """Played by the service after the player ran out of time (on_empty_reserve="smallest_move")."""


class RowPart(Model):
    protected: str
    stage: Literal["starter", "lay", "pick", "over"] = "starter"
    to_move: str | None = None
    starter: str | None = None
    row: list[str] = []
    """Every card laid so far, front first."""
    picked: int = 0
    """How many cards have been taken from the front."""
    last_layer: str | None = None
    taken: dict[str, list[str]]
    clocks: dict[str, ReserveClock]
    moves: list[RowMove] = []
    lost_on_time: str | None = None


class DealMove(Model):
    deal: int
    player: str
    count: int = 0
    cards: list[str] = []
    elapsed: int = 0
    extension: int = 0
    periods_used: int = 0
    periods_after: int = 0


class DealRecord(Model):
    """A finished deal."""

    number: int
    starter: str
    line: list[str]
    taken: dict[str, list[str]]
    base: dict[str, int]
    scores: dict[str, int]
    zero_swap: bool
    totals_after: dict[str, int]


LineSource = Literal["host", "shuffle"]
"""Where a deal's line came from: the host's fixed lines or a shuffle."""


class DealPart(Model):
    number: int = 1
    starter: str
    line: list[str]
    """This deal's whole line, top first."""
    line_source: LineSource
    position: int = 0
    """How many cards have been taken from the top."""
    to_move: str | None = None
    taken: dict[str, list[str]]
    totals: dict[str, int]
    finished: list[DealRecord] = []
    clocks: dict[str, PeriodClock]
    moves: list[DealMove] = []
    lost_on_time: str | None = None
    over: bool = False


class AbstracState(Model):
    settings: AbstracSettings
    players: list[str]
    row: RowPart | None = None
    deal: DealPart | None = None

    def opponent(self, player: str) -> str:
        """The other of the two players."""
        return self.players[1] if player == self.players[0] else self.players[0]


SUBMISSIONS: dict[str, type[Model]] = {"starter": Starter, "lay": Lay, "pick": Pick, "take": Take}
"""Each submission kind's model (the game's `submissions`, the grammar's `models`)."""
