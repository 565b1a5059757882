"""Everyone in a season is told each result, naming and elimination (issue 31 item 3;
service/season/news.py on the fakes): a season of three, Ada, Bo and Cy, one Domino episode and
the Finals, told on its first Main Match by every channel (SNS, a letter to each address, Cy's
webhook), eliminated Cy too; each occasion once, whatever AWS call of the telling fails.

Worked by hand from RULINGS.md: Domino's results rule ("First: 2 ToL; last: EC") gives Ada 2 ToL
and makes Cy, last, the one EC; Cy may name only Bo (Ada holds a ToL, "hold no ToL"); the named
Bo is protected; the Death Match's loser is eliminated; with two left (`finals_at` 2) the Finals
(Abstrac `deal`) among Ada and Bo name the champion."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from season_memory import MemorySeasonStore
from season_support import duel, result

sys.path.append(str(Path(__file__).resolve().parent.parent / "service"))  # the ports' fakes

from fakes import Fakes  # noqa: E402
from memory_hooks import MemoryHooks  # noqa: E402

from game_core.mail.inbound import parse_message  # noqa: E402
from game_core.match.model import MatchRequest  # noqa: E402
from game_core.season.death_match import death_match_ended, finals_ended, start_death_match, start_finals  # noqa: E402
from game_core.season.episode import keep_tol, main_match_ended, start_episode  # noqa: E402
from game_core.season.naming import name_opponent  # noqa: E402
from game_core.service.matches.lifecycle import create_match  # noqa: E402
from game_core.service.page import play, render  # noqa: E402
from game_core.service.ports import Ports  # noqa: E402
from game_core.service.season.lifecycle import Step, apply, create_season  # noqa: E402
from game_core.service.season.machine import ensure_match, season_match_id  # noqa: E402
from game_core.service.season.news import announce  # noqa: E402
from game_core.service.season.ports import Link  # noqa: E402

SEASON = "s-three"
MAIN = "m-000000000001"  # the fakes' first match id: the season's first Main Match
CAST = [
    {"id": "ada", "name": "Ada", "email": "ada@example.com"},
    {"id": "bo", "name": "Bo", "email": "bo@example.com"},
    {"id": "cy", "name": "Cy", "email": "cy@example.com", "webhook": "https://bots.example.com/cy"},
]
SETTINGS = {"name": "Three", "seed": 7, "cast": CAST, "episodes": [{"main": {"game": "domino"}}]}
DOMINO = result(["ada", "bo", "cy"], tol={"ada": 2}, ec=["cy"], garnets={"ada": 10, "bo": 6, "cy": 4})
"""Domino among three: Ada first (2 ToL, her square 5: 10 garnets), Cy last (EC, 4 garnets)."""


def advances() -> list[list[Step]]:
    """The season's steps, grouped by the Advance (or the act and its Advance) that takes them."""
    return [
        [lambda _, s: start_episode(s, 1, MAIN)],
        [lambda settings, s: main_match_ended(s, settings, MAIN, DOMINO)],
        [lambda _, s: name_opponent(s, "cy", "bo")],
        [lambda _, s: start_death_match(s, "cy", "m-dm")],
        [
            lambda _, s: death_match_ended(s, "m-dm", duel("bo", "cy")),
            lambda settings, s: start_finals(s, settings, "m-fin"),
        ],
        [lambda _, s: finals_ended(s, "m-fin", duel("ada", "bo"))],
    ]


@dataclass
class Faults:
    """Counts every call of the telling's ports, in order, and fails the one `strike` names once:
    before it (a throttle: nothing done) or after it (done, its reply lost)."""

    strike: tuple[int, bool] | None = None
    calls: list[str] = field(default_factory=list)
    struck: tuple[Any, ...] = ()
    """What the struck call was given."""

    def wrap(self, name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def struck(*args: Any, **kwargs: Any) -> Any:
            index = len(self.calls)
            self.calls.append(name)
            if self.strike == (index, False):
                raise RuntimeError(f"{name} failed")
            done = call(*args, **kwargs)
            if self.strike == (index, True):
                self.struck = args
                raise RuntimeError(f"{name} was done, its reply lost")
            return done

        return struck


@dataclass
class World:
    fakes: Fakes
    ports: Ports
    hooks: MemoryHooks
    seasons: MemorySeasonStore
    faults: Faults

    def tell(self) -> None:
        """The Advance's telling, retried (as the machine retries a failed step) until it goes through."""
        for _attempt in range(3):
            try:
                announce(self.ports, self.seasons.season(SEASON))
                return
            except RuntimeError:
                continue
        raise AssertionError("the telling never went through")

    def told(self) -> dict[str, list[str]]:
        """Every unit told on each channel, by its id, in order."""
        return {
            "sns": [notice.notice_id for _, notice in self.fakes.notifier.published],
            "mail": [str(mail.told_as) for mail in self.fakes.mailer.sent],
            "webhook": [delivery.told_as for delivery in self.hooks.queued],
        }


def world(strike: tuple[int, bool] | None = None, cast: list[dict[str, str]] = CAST, **options: Any) -> World:
    """The season created, its first Main Match made (the fakes' first match), nothing told yet."""
    fakes, hooks, seasons, faults = Fakes(), MemoryHooks(), MemorySeasonStore(), Faults(strike)
    ports = replace(fakes.ports, hooks=hooks, seasons=seasons)
    create_season(seasons, fakes.clock, fakes.ids, SETTINGS | {"cast": cast} | options, season_id=SEASON)
    players = [{k: v for k, v in member.items() if k != "webhook"} for member in cast]
    request = {"game": "domino", "players": players, "phase_seconds": 3600, "early_close": False}
    webhooks = {"cy": "https://bots.example.com/cy", "@public": "https://community.example.com/season"}
    create_match(ports, MatchRequest.model_validate(request | {"webhooks": webhooks}))
    fakes.notifier.published.clear()
    fakes.mailer.sent.clear()
    hooks.queued.clear()
    for name in ("get", "remember_told"):
        setattr(fakes.store, name, faults.wrap(name, getattr(fakes.store, name)))
    for name in ("season_log", "mark_announced"):
        setattr(seasons, name, faults.wrap(name, getattr(seasons, name)))
    fakes.notifier.publish = faults.wrap("publish", fakes.notifier.publish)  # type: ignore[method-assign]
    fakes.mailer.send = faults.wrap("send", fakes.mailer.send)  # type: ignore[method-assign]
    hooks.enqueue = faults.wrap("enqueue", hooks.enqueue)  # type: ignore[method-assign]
    return World(fakes, ports, hooks, seasons, faults)


def played(strike: tuple[int, bool] | None = None) -> World:
    """The season played through, told after each Advance."""
    made = world(strike)
    for steps in advances():
        for step in steps:
            apply(made.seasons, made.fakes.clock, SEASON, step)
        made.tell()
    return made


def letters(made: World, player: str) -> list[tuple[str, str]]:
    """(subject, text) of each letter to `player`, in order."""
    email = f"{player}@example.com"
    read = [parse_message(mail.raw) for mail in made.fakes.mailer.sent if mail.to == email]
    return [(letter.subject, letter.text) for letter in read]


def news(made: World, player: str) -> list[list[str]]:
    """What each notice to `player` said happened, in order."""
    return [notice.body["news"] for _, notice in made.fakes.notifier.published if notice.recipient == player]


TOLD = [
    [
        "Episode 1's Main Match (domino) is over.",
        "Places: 1 Ada, 2 Bo, 3 Cy.",
        "Tokens of Life won: Ada 2.",
        "Elimination Candidate: Cy.",
    ],
    ["Cy named Bo as their Death Match opponent.", "Death Match: Cy v Bo (Bo protected)."],
    ["Bo won the Death Match against Cy: Cy is eliminated.", "Episode 1 is over."],
    ["The Finals begin: abstrac deal among Ada and Bo."],
    ["Ada is the season's champion. The season is over."],
]
"""What everyone is told, in order (worked by hand from the season above)."""


def test_everyone_eliminated_or_not_is_told_each_result_naming_and_elimination_in_order() -> None:
    made = played()
    for player in ("ada", "bo", "cy"):
        assert news(made, player) == TOLD
        subjects = [subject for subject, _ in letters(made, player)]
        assert subjects == [f"[Three] {lines[0]}" for lines in TOLD]
    # Cy's webhook gets what her mail says, under the notice's id
    delivered = [d for d in made.hooks.queued if d.target == "cy"]
    assert [d.payload["news"] for d in delivered] == TOLD
    cys = [notice.notice_id for _, notice in made.fakes.notifier.published if notice.recipient == "cy"]
    assert [d.webhook_id for d in delivered] == cys
    assert made.seasons.season(SEASON).announced == len(made.seasons.season_events(SEASON))


def test_the_hosts_public_channel_is_told_each_occasion_once_with_the_facts_and_no_ones_turn() -> None:
    """SEASONS.md, "What everyone is told": the season's facts are public, so the public SNS topic
    and the first Main Match's `@public` subscription get one notice per occasion, as the cast
    does (TOLD, worked by hand), under `.../season-N/@all`; never an EC's turn (Cy's, on the
    result), nor the way to a page only a cast member's season secret opens."""
    made = played()
    public = [notice for _, notice in made.fakes.notifier.published if notice.recipient is None]
    assert [notice.body["news"] for notice in public] == TOLD
    assert all(n.notice_id.startswith(f"{MAIN}/season-") and n.notice_id.endswith("/@all") for n in public)
    assert len({n.notice_id for n in public}) == len(TOLD)
    assert not any("you" in n.body or "your_turn" in n.body for n in public)
    delivered = [d for d in made.hooks.queued if d.target == "@public"]
    assert [d.webhook_id for d in delivered] == [n.notice_id for n in public]
    result = delivered[0].payload["text"]
    assert result.startswith("Episode 1's Main Match (domino) is over.")
    assert "  Ada  ToL 2  garnets won 10   in" in result  # the standing (Domino: Ada 2 ToL, 10 garnets)
    assert "Your turn" not in result and "/season" not in result and "NAME" not in result
    # Nobody's letter is the public notice's: still one letter per cast member and occasion
    assert len(made.fakes.mailer.sent) == 3 * len(TOLD)


def test_each_letter_carries_the_standing_and_the_way_to_the_seasons_page() -> None:
    made = played()
    _subject, text = letters(made, "cy")[2]  # the Death Match's result
    assert text.startswith("Hello Cy,\n\nBo won the Death Match against Cy: Cy is eliminated.")
    # Garnets won: the Domino's 2k (Ada 10, Bo 6, Cy 4); ToL: Ada's 2
    assert "  Ada  ToL 2  garnets won 10   in\n" in text
    assert "  Bo   ToL 0  garnets won 6    in\n" in text
    assert "  Cy   ToL 0  garnets won 4    eliminated in episode 1\n" in text
    assert "  1. domino: ECs Cy; Cy named Bo; eliminated Cy" in text
    assert f"/play/{MAIN}/season" in text
    # Cy, the EC, is told on the result's letter that it is her turn, by when (24 hours after the
    # result: the fakes' clock stands at 12:00 UTC on 1 December) and whom she may name: Bo only
    _subject, result = letters(made, "cy")[0]
    assert (
        "Your turn: name your Death Match opponent by Wednesday 2 December, 12:00 UTC,\nin 1 day "
        "(then the host may name for you). Reply with one line, NAME and one\nof: Bo (NAME bo)."
    ) in result
    assert "Your turn" not in letters(made, "bo")[0][1] and "Your turn" not in letters(made, "cy")[1][1]
    # Everyone reads the same facts: the letters differ only in whom they greet
    same = {text.split("\n", 1)[1] for text in (letters(made, p)[2][1] for p in ("ada", "bo", "cy"))}
    assert len(same) == 1


def test_a_told_log_tells_nothing_again() -> None:
    made = played()
    before = made.told()
    made.tell()
    assert made.told() == before


def test_no_ecs_choice_is_told_before_it_is_made_and_nothing_but_the_seasons_facts() -> None:
    """A season of four with ToL spending: Domino 1 gives Ada 2 ToL, Di (last) names Bo and is
    eliminated; Domino 2 among Ada, Bo and Cy puts Ada last: EC, holding 2 ToL, she may spend one.
    Until she answers, everyone is told only that she may; then that she kept it."""
    four = [*CAST, {"id": "di", "name": "Di", "email": "di@example.com"}]
    # The Finals Domino (2 to 8): a spent ToL with nobody to replace may leave 3 (SEASONS.md)
    made = world(cast=four, tol_spending=True, episodes=[{"main": {"game": "domino"}}] * 2, final={"game": "domino"})
    first = result(["ada", "bo", "cy", "di"], tol={"ada": 2}, ec=["di"])
    second = result(["bo", "cy", "ada"], tol={"bo": 2}, ec=["ada"])
    for step in [
        lambda _, s: start_episode(s, 1, MAIN),
        lambda settings, s: main_match_ended(s, settings, MAIN, first),
        lambda _, s: name_opponent(s, "di", "bo"),
        lambda _, s: start_death_match(s, "di", "m-dm"),
        lambda _, s: death_match_ended(s, "m-dm", duel("bo", "di")),
        lambda _, s: start_episode(s, 2, "m-two"),
        lambda settings, s: main_match_ended(s, settings, "m-two", second),
    ]:
        apply(made.seasons, made.fakes.clock, SEASON, step)
    made.tell()
    assert news(made, "di")[-2:] == [
        ["Episode 2 begins: domino among Ada, Bo and Cy."],
        [
            "Episode 2's Main Match (domino) is over.",
            "Places: 1 Bo, 2 Cy, 3 Ada.",
            "Tokens of Life won: Bo 2.",
            "Elimination Candidate: Ada.",
            "Ada may spend a Token of Life to be safe this episode, before anyone names.",
        ],
    ]
    told = json.dumps(news(made, "bo"))
    assert "keeps" not in told and "spent" not in told and "named" not in told.split("Episode 2")[-1]
    apply(made.seasons, made.fakes.clock, SEASON, lambda _, s: keep_tol(s, "ada"))
    made.tell()
    assert news(made, "cy")[-1] == ["Ada keeps their Token of Life."]
    # Every notice holds the season's public facts and nothing of any match (no view, no move)
    bodies = [notice.body for _, notice in made.fakes.notifier.published]
    keys = {key for body in bodies for key in body}
    assert keys == {"type", "match_id", "season_id", "standing", "standing_text", "you", "news", "your_turn"}
    # Only Ada was told her turn: to spend or keep on the result's notice, then to name, among
    # those who hold no ToL (Cy: Bo holds 2), each by 24 hours (`naming_hours`) after the turn
    # opened (the fakes' clock stands at 12:00 on 1 December)
    turns = [(n.recipient, n.body["news"][0], n.body.get("your_turn")) for _, n in made.fakes.notifier.published]
    by = "2026-12-02T12:00:00Z"
    assert [turn for turn in turns if turn[2]] == [
        ("ada", "Episode 2's Main Match (domino) is over.", {"act": "spend", "among": [], "by": by}),
        ("ada", "Ada keeps their Token of Life.", {"act": "naming", "among": ["cy"], "by": by}),
    ]


def test_what_one_advance_costs_to_tell_and_that_a_told_log_costs_nothing() -> None:
    made = world()
    for steps in advances()[:2]:  # the episode begins (nothing to tell), Domino's result
        for step in steps:
            apply(made.seasons, made.fakes.clock, SEASON, step)
        made.faults.calls.clear()
        made.tell()
    # One occasion to three players: the first Main Match read, the log's new entries read, the
    # notices published (a batch: SNS's PublishBatch takes ten), a letter each, Cy's delivery
    # queued, the mark written. No season write, so no state transition and no version moved
    assert made.faults.calls == ["get", "season_log", "publish", "send", "send", "send", "enqueue", "mark_announced"]
    made.faults.calls.clear()
    made.tell()  # a retried Advance, or one with nothing new
    assert made.faults.calls == []


def clean_run() -> tuple[dict[str, list[str]], list[str]]:
    made = played()
    return made.told(), list(made.faults.calls)


REPEATED_WHEN_LOST = {"send", "enqueue"}
"""Sends whose reply, lost, no store can tell from a send never made: the retry sends that one
again, under the same id (a receiver drops it); every other fault repeats nothing."""


@pytest.mark.parametrize("after", [False, True], ids=["before", "after"])
def test_a_fault_at_any_call_of_the_telling_tells_each_notice_once(after: bool) -> None:
    clean, calls = clean_run()
    # A letter per player and occasion; a mark per Advance with something new in the log (six)
    assert Counter(calls)["send"] == 3 * len(TOLD) and Counter(calls)["mark_announced"] == len(advances())
    for index, name in enumerate(calls):
        made = played((index, after))
        lost = sent_by(made.faults.struck) if after and name in REPEATED_WHEN_LOST else set()
        for channel, units in made.told().items():
            repeated = Counter(units) - Counter(clean[channel])
            assert set(units) == set(clean[channel]), (index, name, channel)
            assert set(repeated) <= lost and max(repeated.values(), default=1) == 1, (index, name, repeated)


def sent_by(args: tuple[Any, ...]) -> set[str]:
    """The ids of what a send (one mail) or an enqueue (deliveries) was given."""
    given = args[0]
    return {str(one.told_as) for one in given} if isinstance(given, list) else {str(given.told_as)}


@dataclass
class Links:
    """The season machine's links to its matches, in memory."""

    links: dict[str, Link] = field(default_factory=dict)

    def link(self, match_id: str, season_id: str, token: str) -> None:
        self.links[match_id] = Link(season_id, token, opened=True)

    def linked(self, match_id: str) -> Link | None:
        return self.links.get(match_id)


def test_a_match_the_season_starts_names_it_its_page_links_the_season_and_its_letters_say_where() -> None:
    fakes, seasons = Fakes(), MemorySeasonStore()
    ports = replace(fakes.ports, seasons=seasons, season_links=Links(), hooks=MemoryHooks())  # type: ignore[arg-type]
    secrets = create_season(seasons, fakes.clock, fakes.ids, SETTINGS, season_id=SEASON).secrets
    main = season_match_id(SEASON, "e1-main")
    apply(seasons, fakes.clock, SEASON, lambda _, s: start_episode(s, 1, main))
    ensure_match(ports, seasons.season(SEASON), main, "token")
    assert fakes.store.get(main).season_id == SEASON
    session = play.sign_in(ports, main, secrets["bo"])
    fakes.store.reads.clear()
    page = render.page(play.show(ports, main, session.cookie))
    assert fakes.store.reads == ["view", "get"]  # still the page's one read (the fake's view reads through get)
    assert f'<a id="season-link" href="/play/{main}/season">The season</a>' in page
    # The match's opening letter says where the season's standing is (no read of the season)
    opening = parse_message(next(m.raw for m in fakes.mailer.sent if m.to == "bo@example.com")).text
    assert f"This match is one of season {SEASON}'s." in opening and f"/play/{main}/season" in opening
