"""How an episode of each game ends, in counts: how many Elimination Candidates its result names
among n players, whether its result fixes the Death Match pair, and whether it sends a player to
the Finals. Read from each game's results rule (RULINGS.md) to project, when a season is created,
how many players every episode will have; the season itself follows the actual results.

A game not listed names one EC and no finalist (Palindrome, Domino, Abstrac as a Main Match)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shape:
    most_ecs: int = 1
    """ECs the result names at most (fewer when few play: never all of them)."""
    fixed_pair: bool = False
    """The result fixes one Death Match pair (Clubs: the two teams that did not win)."""
    finalists: int = 0
    """Players the result sends to the Finals (Clubs: the winner)."""
    awards_tol: bool = True
    """The result gives Tokens of Life (Clubs' winner goes to the Finals instead)."""

    def ecs(self, players: int) -> int:
        return min(self.most_ecs, players - 1)

    def death_matches(self, players: int) -> int:
        """Death Matches of an episode of `players`: one per EC while someone is left to name
        (each EC names a different player who is no EC), one for a fixed pair."""
        if self.fixed_pair:
            return 1
        ecs = self.ecs(players)
        return min(ecs, players - ecs)

    def fewest_death_matches(self, players: int, tol_held: bool) -> int:
        """Death Matches at fewest when ECs may spend a ToL (`tol_held`: a ToL may be held): none,
        each EC's spend lapsing (whoever would replace them spends in turn, as when everyone holds
        one, which a tie at the top can give); a pair the result fixes is not changed by spending."""
        return 0 if tol_held and not self.fixed_pair else self.death_matches(players)


SHAPES: dict[str, Shape] = {
    "crates": Shape(most_ecs=2),  # "the bottom two players are Elimination Candidates"
    "clubs": Shape(most_ecs=2, fixed_pair=True, finalists=1, awards_tol=False),  # the winner "advances to the Finals"
}


def shape_of(game: str) -> Shape:
    return SHAPES.get(game, Shape())
