"""Settings, submissions, immediate actions and state of Puzzler's Clubs.

A card is written rank then suit, as "AS", "TD", "7C" (ranks 2-9, T, J, Q, K, A; suits C, S, H, D).
A Club Token is named "<round>.<puzzle>": "2.3" is the token of round 2's third puzzle.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, StrictInt, field_validator, model_validator

from game_core.games.protocol import GameSettings, Model, PlayerRef

ROUNDS = 7
PUZZLES_PER_ROUND = 3
MOST_SECONDS = 1800
"""A token is at most 30 minutes; a puzzle never solved in its Phase A gives this."""
DRAFT_SIZE = 6
HAND_SIZE = 5
PuzzleType = Literal["gyul_hap", "target", "differences"]
PUZZLE_TYPES: tuple[PuzzleType, ...] = ("gyul_hap", "target", "differences")
"""Rotated round by round when the host picks none."""

CARD = re.compile(r"^[2-9TJQKA][CSHD]$")
TOKEN = re.compile(r"^[1-7]\.[1-3]$")


def card_name(value: str) -> str:
    """A card as written, upper-cased ("10h" reads as "TH"); raises for anything else."""
    card = value.strip().upper().replace("10", "T")
    if not CARD.match(card):
        raise ValueError(f"{value!r} is not a card (rank 2-9, T, J, Q, K or A, then suit C, S, H or D: 'TH')")
    return card


def _unique(cards: list[str], what: str) -> list[str]:
    named = [card_name(card) for card in cards]
    if len(set(named)) != len(named):
        raise ValueError(f"{what} must be different cards; got {named}")
    return named


class Deal(Model):
    """One round's public cards: the community card and each participant's hole card (no clubs)."""

    community: str
    holes: dict[str, str]

    @field_validator("community")
    @classmethod
    def _community_is_a_card(cls, card: str) -> str:
        return card_name(card)

    @field_validator("holes")
    @classmethod
    def _holes_are_cards(cls, holes: dict[str, str]) -> dict[str, str]:
        return {participant: card_name(card) for participant, card in holes.items()}


class ClubsSettings(GameSettings):
    rule_set: Literal["default"] = Field(
        default="default", description="The rules as written (this game has one rule set)."
    )
    puzzles: list[PuzzleType] | None = Field(
        default=None,
        min_length=ROUNDS,
        max_length=ROUNDS,
        description="Each round's puzzle type, fixed by the host (none: the service rotates them).",
    )
    """The host's puzzle type for each round; None: the service rotates them."""
    deals: list[Deal] | None = Field(
        default=None,
        min_length=ROUNDS,
        max_length=ROUNDS,
        description="Each round's public cards, fixed by the host (none: dealt).",
    )
    """The host's override of each round's public cards."""
    lot: list[str] | None = Field(
        default=None,
        description="The final tie-break lot, fixed by the host: every player's id once, best first (none: drawn).",
    )
    """The host's override of the final tie-break lot: every player once, best first."""


# -- sealed submissions -----------------------------------------------------------------------


class Pick(Model):
    card: str = Field(
        description="A card: its rank (2-9, T, J, Q, K, A) then its suit (C, S, H, D), as TH for the 10 of hearts; "
        "not the community card or a hole card."
    )
    priority: StrictInt = Field(ge=1, le=DRAFT_SIZE, description="1 (drafted first) to 6, each once.")
    token: str | None = Field(
        default=None, description="A club only: one of your unused Club Tokens, as round.puzzle (2.3); else empty."
    )
    """The unused Club Token a club is drafted with ("2.3"); none for any other card."""

    @field_validator("card")
    @classmethod
    def _is_a_card(cls, card: str) -> str:
        return card_name(card)

    @field_validator("token")
    @classmethod
    def _is_a_token(cls, token: str | None) -> str | None:
        if token is not None and not TOKEN.match(token):
            raise ValueError(f"{token!r} is not a token: write <round>.<puzzle>, as 2.3")
        return token


class DraftSubmission(Model):
    """Six different cards with the priorities 1-6, each once; `lowered` are the priority numbers
    lowered by 1 for 2 garnets each (each number at most once)."""

    picks: list[Pick] = Field(min_length=DRAFT_SIZE, max_length=DRAFT_SIZE)
    lowered: list[StrictInt] = Field(
        default_factory=list,
        description="Priority numbers (1 to 6) to lower by 1, for 2 garnets each, each number once; empty: none.",
    )

    @model_validator(mode="after")
    def _six_cards_priorities_once(self) -> DraftSubmission:
        _unique([pick.card for pick in self.picks], "the six picks")
        if sorted(pick.priority for pick in self.picks) != list(range(1, DRAFT_SIZE + 1)):
            raise ValueError("the priorities must be 1 to 6, each once")
        if len(set(self.lowered)) != len(self.lowered) or not all(1 <= n <= DRAFT_SIZE for n in self.lowered):
            raise ValueError("lowered names priority numbers 1 to 6, each at most once")
        self.lowered = sorted(self.lowered)
        return self


class BuildSubmission(Model):
    """A hand of 1 to 5 different cards from those the builder may use."""

    cards: list[str] = Field(
        min_length=1,
        max_length=HAND_SIZE,
        description="Cards as TH (rank 2-9, T, J, Q, K, A, then suit C, S, H, D), from the community card, "
        "your hole card and the cards you won this round.",
    )

    @field_validator("cards")
    @classmethod
    def _different_cards(cls, cards: list[str]) -> list[str]:
        return _unique(cards, "a hand's cards")


class Guess(Model):
    participant: PlayerRef = Field(description="Another participant (your teammate too), each at most once.")
    cards: list[str] = Field(
        default_factory=list,
        max_length=HAND_SIZE,
        description="Up to five different cards as TH that you think are in their hand (none: no guess for them).",
    )
    """No cards: no guess for them (RULINGS, Guess)."""

    @field_validator("cards")
    @classmethod
    def _different_cards(cls, cards: list[str]) -> list[str]:
        return _unique(cards, "a guess's cards")


class GuessSubmission(Model):
    """Up to five different cards guessed for each other participant named (each at most once).
    Guessing nobody is a submission too (RULINGS, Guess): it replaces an earlier one, so a player
    can take their guesses back."""

    guesses: list[Guess] = Field(default_factory=list)

    @model_validator(mode="after")
    def _each_participant_once(self) -> GuessSubmission:
        named = [guess.participant for guess in self.guesses]
        if len(set(named)) != len(named):
            raise ValueError("guess each participant at most once")
        return self

    def by_participant(self) -> dict[str, list[str]]:
        """The guesses that score: a participant guessed no cards is not guessed."""
        return {guess.participant: list(guess.cards) for guess in self.guesses if guess.cards}


# -- immediate actions ---------------------------------------------------------------------


class PuzzleRequest(Model):
    """Send me puzzle 1, 2 or 3 of this round (its clock starts when it is sent)."""

    puzzle: StrictInt = Field(ge=1, le=PUZZLES_PER_ROUND)


class PuzzleAnswer(Model):
    puzzle: StrictInt = Field(ge=1, le=PUZZLES_PER_ROUND)
    answer: str = Field(min_length=1, max_length=500)


class Transfer(Model):
    """Garnets from a player to any guest, or from a guest to any player."""

    to: PlayerRef
    garnets: StrictInt = Field(ge=1, le=1000)


class Peek(Model):
    """1 garnet: the three token values another participant earned in one round."""

    participant: PlayerRef
    round: StrictInt = Field(ge=1, le=ROUNDS)


class HostTokens(Model):
    """The host's token values for a participant's puzzles of the open Phase A (run elsewhere)."""

    participant: PlayerRef
    tokens: list[StrictInt] = Field(min_length=PUZZLES_PER_ROUND, max_length=PUZZLES_PER_ROUND)

    @field_validator("tokens")
    @classmethod
    def _in_range(cls, tokens: list[int]) -> list[int]:
        if not all(1 <= token <= MOST_SECONDS for token in tokens):
            raise ValueError(f"token values are whole seconds from 1 to {MOST_SECONDS}")
        return tokens


# -- state --------------------------------------------------------------------------------


class PuzzleClock(Model):
    """One participant's one puzzle: when it was sent and first solved (ms on the match clock)."""

    sent_ms: int
    solved_ms: int | None = None
    wrong: int = 0


class Placing(Model):
    """One block of the hand ranking: its place (1 = best) and the participants in it."""

    place: int
    participants: list[str]


class CardReveal(Model):
    card: str
    drafted: int
    given: bool


class GuessOutcome(Model):
    """What a participant's guesses did in one round: net points to them, and the points they
    took from (positive) or gave to (negative) each participant guessed."""

    total: int
    bonus: bool
    against: dict[str, int]


class RoundState(Model):
    puzzle_type: PuzzleType
    puzzle_seeds: list[int]
    """Each puzzle's seed: every participant gets the same three (never shown)."""
    deal: Deal
    clocks: dict[str, dict[str, PuzzleClock]] = Field(default_factory=dict)
    """participant -> puzzle number ("1".."3") -> its clock (private)."""
    host_tokens: dict[str, list[int]] = Field(default_factory=dict)
    """Token values the host entered by hand (private); they stand over the service's timing."""
    tokens: dict[str, list[int]] = Field(default_factory=dict)
    """The round's token values, fixed when its Phase A resolves (private)."""
    drafts: dict[str, DraftSubmission] = Field(default_factory=dict)
    """Each participant's draft as it resolved (private)."""
    reveal: list[CardReveal] = Field(default_factory=list)
    """Per card drafted: how many drafted it, given or discarded (public)."""
    won: dict[str, list[str]] = Field(default_factory=dict)
    """Cards each participant received (private)."""
    hands: dict[str, list[str]] = Field(default_factory=dict)
    """Each participant's hand (private; built by the service when none was sent)."""
    built_by_service: list[str] = Field(default_factory=list)
    ranking: list[Placing] = Field(default_factory=list)
    """The relative ranking of the hands (public at the end of Phase B)."""
    hand_points: dict[str, int] = Field(default_factory=dict)
    guessing: dict[str, GuessOutcome] = Field(default_factory=dict)
    """Each guesser's outcome (their own total is told to them privately)."""
    scores: dict[str, int] = Field(default_factory=dict)
    """Each participant's total at the end of the round (secret until the end)."""


class PeekRecord(Model):
    participant: str
    round: int
    tokens: list[int]


class ClubsState(Model):
    participants: list[str]
    """Team order: each player followed by their guest."""
    guests: dict[str, str]
    """guest -> their player."""
    phase: int = 1
    """1-8: the phase waiting to resolve (phase n holds round n's A and round n-1's B); 9: over."""
    rounds: list[RoundState]
    used_tokens: dict[str, list[str]] = Field(default_factory=dict)
    peeks: dict[str, list[PeekRecord]] = Field(default_factory=dict)
    """What each buyer learned (private to them)."""
    lot_override: list[str] | None = None
    lot: list[str] | None = None
    """The final tie-break lot among players, best first, drawn when the last phase resolves."""

    @property
    def players(self) -> list[str]:
        return [p for p in self.participants if p not in self.guests]


SUBMISSIONS: dict[str, type[Model]] = {"draft": DraftSubmission, "build": BuildSubmission, "guess": GuessSubmission}
"""Each sealed submission kind's model (the game's `submissions`; the grammar reads them all)."""
ACTIONS: dict[str, type[Model]] = {
    "puzzle": PuzzleRequest,
    "answer": PuzzleAnswer,
    "transfer": Transfer,
    "peek": Peek,
    "tokens": HostTokens,
}
"""Each immediate action's model (the game's `actions`; the grammar reads all but the host's `tokens`)."""
