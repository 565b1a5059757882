"""Settings, submissions and state of Pushing Crates."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictInt, field_validator, model_validator

from game_core.games.protocol import GameSettings, Model, PlayerRef

ROUNDS = 6
MULTIPLIERS = (-1, -1, 0, 1, 1, 2)
"""The point multipliers every player assigns to rounds 1-6, and the default (listed) order."""

Ground = Literal["rubber", "stone", "ice"]
Direction = Literal["left", "right"]


class CratesSettings(GameSettings):
    rule_set: Literal["default"] = Field(
        default="default", description="The rules as written (this game has one rule set)."
    )
    lot: list[str] | None = Field(
        default=None,
        description="The final tie-break lot, fixed by the host: every player's id once, best first (none: drawn).",
    )
    """The host's override of the final tie-break lot: every player once, best first."""

    @field_validator("lot")
    @classmethod
    def _lot_names_each_player_once(cls, lot: list[str] | None) -> list[str] | None:
        if lot is not None and len(set(lot)) != len(lot):
            raise ValueError("the lot must name each player exactly once")
        return lot


class MultipliersSubmission(Model):
    """A point multiplier for each of rounds 1-6, in round order."""

    multipliers: list[Annotated[StrictInt, Field(ge=min(MULTIPLIERS), le=max(MULTIPLIERS))]] = Field(
        min_length=ROUNDS,
        max_length=ROUNDS,
        description=f"The six multipliers {', '.join(map(str, MULTIPLIERS))} in any order, round 1's first.",
    )

    @model_validator(mode="after")
    def _is_a_permutation(self) -> MultipliersSubmission:
        if sorted(self.multipliers) != sorted(MULTIPLIERS):
            raise ValueError(
                f"multipliers must be a permutation of {list(MULTIPLIERS)}, one for each round; got {self.multipliers}"
            )
        return self


class Push(Model):
    crate: PlayerRef
    """The id of the player whose crate is pushed."""
    direction: Direction


class RoundSubmission(Model):
    pushes: list[Push] = Field(default_factory=list)
    ground: Ground = "stone"
    """Rulings: a round submission that names no ground (left out, or null) uses stone; the reply
    to the player echoes the parsed submission, so it says so."""

    @field_validator("ground", mode="before")
    @classmethod
    def _no_ground_is_stone(cls, ground: object) -> object:
        return "stone" if ground is None else ground


class RoundRecord(Model):
    """One player's own round as it resolved (private to that player)."""

    pushes: list[Push]
    ground: Ground
    submitted: bool
    """False when nothing was submitted and the default (no pushes, stone) applied."""


class CratesState(Model):
    players: list[str]
    phase: int = 0
    """0 the pregame, 1-6 the round waiting to resolve, 7 the match is over."""
    lot_override: list[str] | None = None
    pregame_multipliers: dict[str, list[int]] = Field(default_factory=dict)
    """Multipliers submitted in the pregame phase (private to each player)."""
    round1_multipliers: dict[str, list[int]] = Field(default_factory=dict)
    """Multipliers submitted during round 1, overriding the pregame ones (private)."""
    multipliers: dict[str, list[int]] = Field(default_factory=dict)
    """The multipliers that stand, fixed when round 1 resolves (private)."""
    records: dict[str, list[RoundRecord]] = Field(default_factory=dict)
    """Each player's own pushes and ground per resolved round (private)."""
    locations: dict[str, list[int]] = Field(default_factory=dict)
    """Each crate's location at the end of each resolved round (secret until the end)."""
    points: dict[str, list[int]] = Field(default_factory=dict)
    """Each player's points per resolved round (private; totals public at the end)."""
    reveals: list[dict[str, int]] = Field(default_factory=list)
    """Per resolved round, every crate's location mod 5 (public)."""
    lot: list[str] | None = None
    """The tie-break lot, best first, drawn when round 6 resolves."""


SUBMISSIONS: dict[str, type[Model]] = {"multipliers": MultipliersSubmission, "round": RoundSubmission}
"""Each submission kind's model (the game's `submissions`, the grammar's `models`)."""
