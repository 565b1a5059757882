"""A season's settings: the rulings' defaults, the projected players of each episode, and every
refusal at creation naming what is wrong (RULINGS.md, "Seasons": "A game whose player limits
exclude an episode's projected count is refused when the season is created, naming the episode")."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from season_support import CAST, settings

from game_core.season.errors import SettingsRefused
from game_core.season.settings import projected_players, projected_spans, read_settings


def refused(data: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(SettingsRefused) as caught:
        read_settings(data)
    return [(reason.code, reason.text) for reason in caught.value.reasons]


def season(*mains: str, cast: int = 6, **options: Any) -> dict[str, Any]:
    players = [{"id": f"p{n}"} for n in range(1, cast + 1)]
    return {"cast": players, "episodes": [{"main": {"game": game}} for game in mains]} | options


def test_the_defaults_are_the_rulings() -> None:
    chosen = settings("domino", "crates", "clubs")
    assert (chosen.naming_hours, chosen.host_hours, chosen.tol_spending, chosen.finals_at) == (24, 24, False, 2)
    assert (chosen.final.game, chosen.final.rule_set) == ("abstrac", "deal")
    assert [(e.death_match.game, e.death_match.rule_set) for e in chosen.episodes] == [("abstrac", "row")] * 3


@pytest.mark.parametrize(
    ("mains", "cast", "counts"),
    [
        # Domino: 1 EC, 1 Death Match (6 -> 5); Crates among 5: 2 ECs, each names one of the 3
        # others (5 -> 3); Clubs among 3: its pair's Death Match (3 -> 2) and its winner a finalist
        (("domino", "crates", "clubs"), 6, [6, 5, 3]),
        # Crates among 3: 2 ECs but 1 player left to name: 1 Death Match (3 -> 2)
        (("crates",), 3, [3]),
        # Palindrome among 9, then Crates among 8 (2 Death Matches) leave 6, then four Domino
        (("palindrome", "crates", "domino", "domino", "domino", "domino"), 9, [9, 8, 6, 5, 4, 3]),
    ],
)
def test_each_episode_is_projected_from_the_games_results(mains: tuple[str, ...], cast: int, counts: list[int]) -> None:
    assert projected_players(read_settings(season(*mains, cast=cast))) == counts


def test_a_game_whose_limits_exclude_an_episodes_count_is_refused_naming_the_episode() -> None:
    # 7 players: Domino leaves 6 for Clubs (3 players only); Clubs' Death Match leaves 5
    assert refused(season("domino", "clubs", "crates", "crates", cast=7))[0] == (
        "player_count",
        "episode 2 main match (clubs) would have 6 players; clubs takes 3",
    )
    # Palindrome takes 2 to 12: 13 is refused in episode 1
    assert ("player_count", "episode 1 main match (palindrome) would have 13 players; palindrome takes 2 to 12") in (
        refused(season(*["palindrome"] * 11, cast=13))
    )


def test_a_death_match_and_a_final_game_must_take_their_counts() -> None:
    data = season("domino", "domino", "domino", cast=5, finals_at=2)
    data["episodes"][1]["death_match"] = {"game": "clubs"}
    data["final"] = {"game": "clubs"}
    assert refused(data) == [
        ("player_count", "episode 2 death match (clubs) would have 2 players; clubs takes 3"),
        ("player_count", "final (clubs) would have 2 players; clubs takes 3"),
    ]


def test_episodes_must_end_exactly_at_the_finals() -> None:
    # 3 players: one Domino leaves 2 = finals_at; a second episode would never be played
    assert refused(season("domino", "domino", cast=3)) == [
        ("past_the_finals", "episode 2 would never be played: 2 left before it; the Finals begin at 2")
    ]
    # 6 players, one Domino: 5 left, more than finals_at
    assert refused(season("domino", cast=6)) == [
        ("short_of_the_finals", "after episode 1 5 players would be left, more than finals_at (2): add episodes")
    ]
    # 5 players, finals_at 4: Crates among 5 removes 2, leaving 3; the final (Abstrac) is for 2
    assert refused(season("crates", cast=5, finals_at=4)) == [
        ("below_the_finals", "episode 1 would leave 3 players, fewer than finals_at (4)"),
        ("player_count", "final (abstrac deal) would have 4 players; abstrac takes 2"),
    ]


LAPSE = "(an EC who spends a ToL with nobody to replace them stays in the season)"


def test_with_tol_spending_every_count_a_lapsed_spend_may_leave_is_checked() -> None:
    # Issue 31's season with ToL spending: Domino among 6 removes 1 whatever happens (nobody holds
    # a ToL before its result, and "a player is never both" ToL and EC); Crates among 5 names the
    # top 3 ToL and the bottom 2 EC, so an EC who spends (Domino's winner holds 2) finds nobody to
    # replace them: each of the 2 Death Matches may not be played, leaving 3, 4 or 5 for Clubs,
    # which takes exactly 3. Clubs' pair plays whatever is spent: 2 to 4 left for the final
    data = season("domino", "crates", "clubs", tol_spending=True)
    assert refused(data) == [
        (
            "player_count",
            f"episode 3 main match (clubs) may have 3 to 5 players {LAPSE}; clubs takes 3: turn tol_spending off,"
            " or choose a game that takes 3 to 5",
        ),
        (
            "player_count",
            f"final (abstrac deal) may have 2 to 4 players {LAPSE}; abstrac takes 2: turn tol_spending off,"
            " or choose a game that takes 2 to 4",
        ),
    ]
    assert projected_players(read_settings(data | {"tol_spending": False})) == [6, 5, 3]  # the same, off


def test_domino_takes_every_count_spending_may_leave() -> None:
    # Four Domino among 6: episode 1 removes 1 (nobody holds a ToL yet); from episode 2 on its one
    # EC's spend may lapse, so each later episode keeps 0 or 1 Death Match: 5, then 4 to 5, then
    # 3 to 5, and 2 to 5 left for the Finals. Domino takes 2 to 8: accepted with a Domino final,
    # refused with Abstrac's (2 only)
    data = season("domino", "domino", "domino", "domino", tol_spending=True, final={"game": "domino"})
    assert projected_spans(read_settings(data)) == ([(6, 6), (5, 5), (4, 5), (3, 5)], (2, 5))
    assert refused(data | {"final": {"game": "abstrac", "rule_set": "deal"}}) == [
        (
            "player_count",
            f"final (abstrac deal) may have 2 to 5 players {LAPSE}; abstrac takes 2: turn tol_spending off,"
            " or choose a game that takes 2 to 5",
        )
    ]


def test_a_pair_the_result_fixes_plays_whatever_is_spent() -> None:
    # Domino among 4 (no ToL held yet: 4 -> 3), then Clubs among 3: its pair is fixed by the
    # result, spending changes nothing (and Clubs gives no ToL): 2 left, as without spending
    chosen = read_settings(season("domino", "clubs", cast=4, tol_spending=True))
    assert projected_spans(chosen) == ([(4, 4), (3, 3)], (2, 2))


def test_unknown_games_wrong_game_settings_and_the_seasons_own_match_fields_are_refused() -> None:
    data = season("domino", "crates", "nothing", cast=6, match_options={"seed": 4, "phase_seconds": "2h"})
    data["episodes"][0]["main"]["settings"] = {"rule_set": "mm8"}
    reasons = refused(data)
    owned = "match_options may not set seed: the season sets them itself"
    assert ("season_owns_field", owned) in reasons
    unknown = [text for code, text in reasons if code == "unknown_game"]
    assert len(unknown) == 1 and unknown[0].startswith("episode 3 main match: unknown game 'nothing'")
    assert any(text.startswith("episode 1 main match (domino) settings.rule_set") for _, text in reasons)


def test_match_options_are_checked_as_a_match_settings_file() -> None:
    reasons = refused(season("domino", "crates", "clubs", match_options={"phase_seconds": "2h"}))
    assert reasons == [
        ("int_parsing", "match_options.phase_seconds: '2h' is not a number of seconds: write 7200 for 2 hours")
    ]


def test_the_cast_is_told_apart_and_at_least_two() -> None:
    data = season("domino", "crates", "clubs")
    data["cast"][1]["name"] = "P1"
    assert refused(data)[0][1].startswith("cast: 'p1' would name both 'p1' and 'p2'")
    assert refused({"cast": [{"id": CAST[0]}], "episodes": [{"main": {"game": "domino"}}]})[0][0] == "too_short"


def test_the_settings_file_docs_seasons_shows_makes_a_season() -> None:
    page = (Path(__file__).resolve().parents[3] / "docs" / "SEASONS.md").read_text(encoding="utf-8")
    shown = json.loads(re.search(r"```json\n(.*?)```", page, re.DOTALL)[1])  # type: ignore[index]
    chosen = read_settings(shown)
    assert projected_players(chosen) == [6, 5, 3] and chosen.match_options == {
        "phase_seconds": 86400,
        "early_close": True,
    }


def test_settings_too_large_for_their_item_are_refused() -> None:
    # A game's settings as a match takes them, at most 16,000 characters of JSON
    data = season("domino", "crates", "clubs")
    data["episodes"][0]["main"]["settings"] = {"tiles": "x" * 16_000}
    assert refused(data)[0][1].startswith("episodes.0.main.settings: the settings take 16012 characters as JSON")
    # The whole season at most 200,000: 13 episodes' Palindrome settings of ~15,800 are ~205,000
    big = season(*["palindrome"] * 12, "domino", cast=15)  # 15 players, 13 episodes: 2 left
    for episode in big["episodes"]:
        episode["main"]["settings"] = {"items": "x" * 15_800}
    assert refused(big)[0][0] == "too_large"
