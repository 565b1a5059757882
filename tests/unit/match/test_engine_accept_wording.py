"""What `engine.accept` says when it refuses, word for word: phase names match without regard to
case; a phase still to come is "not open yet" and says when it opens; a closed one is late; no
reply carries internal words (a phase "?", an ISO timestamp, a player id where a name is known)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from game_core.errors import GameCoreError, Illegal, Late, Malformed, NotOpen
from game_core.games import registry
from game_core.match import engine
from game_core.match.model import Match, Participant

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)  # a Tuesday
HOUR = 3600
CRATES = registry.load("crates")
ROUND = {"pushes": [], "ground": "stone"}


def started(game_id: str, players: dict[str, str]) -> Match:
    """A match begun at T0 with 3-hour phases; players by id and name."""
    match = Match(
        match_id="m-test",
        game=game_id,
        settings={},
        seed=1,
        players=tuple(Participant(id=p, name=name, secret_hash="x") for p, name in players.items()),
        phase_seconds=3 * HOUR,
        early_close=False,
        recheck_seconds=HOUR,
        created_at=T0,
        starting_garnets={},
    )
    return engine.start(match, registry.load(game_id), T0)


def crates_round_1() -> Match:
    """Round 1 (phase 2) of Crates, open from 15:00 to 18:00 Tuesday 1 December."""
    match = started("crates", {"ada": "Ada", "bo": "Bo"})
    return engine.resolve(match, CRATES, {}, T0 + timedelta(hours=3)).match


def refusal(match: Match, phase: str, number: int | None = None, at_hours: float = 4, **kwargs) -> GameCoreError:
    with pytest.raises(GameCoreError) as refused:
        accept(match, phase, number, at_hours, **kwargs)
    return refused.value


def accept(match: Match, phase: str, number: int | None = None, at_hours: float = 4, player: str = "ada"):
    now = T0 + timedelta(hours=at_hours)
    return engine.accept(match, CRATES, player, phase, "round", ROUND, 0, now, number)


@pytest.mark.parametrize("written", ["Round 1", "round 1", "ROUND 1", " Round 1 "])
def test_the_open_phase_is_named_in_any_case(written: str) -> None:
    assert accept(crates_round_1(), written).kind == "round"


# At 16:00 (the clock's "now"), Round 1 is open until 18:00: "in 2 hours".
WORDING = [
    pytest.param(
        "pregame",
        None,
        Late,
        "'Pregame' is not the open phase; 'Round 1' is open until Tuesday 1 December, 18:00 UTC, in 2 hours",
        id="an earlier phase, in another case",
    ),
    pytest.param(
        "Round 2",
        None,
        NotOpen,
        "'Round 2' is not open yet; it opens when 'Round 1' closes, by Tuesday 1 December, 18:00 UTC, in 2 hours",
        id="the next phase",
    ),
    pytest.param(
        "round 4",
        None,
        NotOpen,
        "'Round 4' is not open yet; it opens after 'Round 1', the open phase",
        id="a later phase: when it opens is not known",
    ),
    pytest.param(
        "Round 2",
        3,
        NotOpen,
        "'Round 2' (phase 3) is not open yet; it opens when 'Round 1' closes, "
        "by Tuesday 1 December, 18:00 UTC, in 2 hours",
        id="the next phase by number",
    ),
    pytest.param(
        "Round 1",
        1,
        Late,
        "'Round 1' (phase 1) is not the open phase; 'Round 1' is open until Tuesday 1 December, 18:00 UTC, in 2 hours",
        id="an earlier number",
    ),
    pytest.param(
        "Round 9",
        None,
        Malformed,
        "Pushing Crates has no phase 'Round 9'; 'Round 1' is open until Tuesday 1 December, 18:00 UTC, in 2 hours",
        id="no such phase",
    ),
]


@pytest.mark.parametrize(("phase", "number", "error", "message"), WORDING)
def test_a_submission_for_another_phase_says_which_is_open_and_when_its_own_opens(phase, number, error, message):
    refused = refusal(crates_round_1(), phase, number)
    assert (type(refused), refused.message) == (error, message)


def test_a_phase_past_its_deadline_says_when_it_closed_in_words():
    # at 18:05 the 18:00 deadline has passed: closed 5 minutes ago
    refused = refusal(crates_round_1(), "Round 1", at_hours=6 + 5 / 60)
    assert (type(refused), refused.message) == (
        Late,
        "'Round 1' closed Tuesday 1 December, 18:00 UTC, 5 minutes ago; it is being resolved",
    )


def test_a_refusal_gives_times_in_the_senders_time_zone_with_utc_beside_them():
    match = crates_round_1()
    ada, bo = match.players
    match = match.model_copy(update={"players": (ada.model_copy(update={"zone": "Asia/Tokyo"}), bo)})
    # Round 1 closes 18:00 UTC Tuesday: 03:00 on Wednesday in Tokyo (UTC+9); Bo has no zone
    assert refusal(match, "pregame").message == (
        "'Pregame' is not the open phase; 'Round 1' is open until Wednesday 2 December, 03:00 "
        "(Asia/Tokyo) - Tuesday 1 December, 18:00 UTC, in 2 hours"
    )
    assert refusal(match, "pregame", player="bo").message.endswith(
        "open until Tuesday 1 December, 18:00 UTC, in 2 hours"
    )
    late = refusal(match, "Round 1", at_hours=6 + 5 / 60)
    assert late.message == (
        "'Round 1' closed Wednesday 2 December, 03:00 (Asia/Tokyo) - Tuesday 1 December, 18:00 UTC, "
        "5 minutes ago; it is being resolved"
    )


def test_a_paused_phase_says_so_and_promises_no_time():
    match = crates_round_1()
    paused = match.model_copy(update={"phase": match.phase.pause(T0 + timedelta(hours=3, minutes=30))})
    refused = refusal(paused, "Round 3")
    assert (type(refused), refused.message) == (
        NotOpen,
        "'Round 3' is not open yet; it opens after 'Round 1', the open phase",
    )
    assert (
        refusal(paused, "Pregame").message == "'Pregame' is not the open phase; 'Round 1' is open, paused by the host"
    )


def test_one_who_cannot_act_is_told_by_name_who_can():
    # Abstrac's first phase: the protected player (the first, Ada) alone chooses the starter
    match = started("abstrac", {"ada": "Ada", "bo": "Bo"})
    with pytest.raises(Illegal) as refused:
        engine.accept(match, registry.load("abstrac"), "bo", "choose starter", "starter", {}, 0, T0, None)
    assert refused.value.message == "Bo cannot act in 'Choose starter'; it waits for Ada"


def test_a_validators_own_words_come_without_pydantics_prefix():
    # Clubs' guess model refuses a participant named twice in its own words
    twice = {"guesses": [{"participant": "bo", "cards": ["AS"]}, {"participant": "bo", "cards": ["KS"]}]}
    with pytest.raises(Malformed) as refused:
        engine.parse_submission(registry.load("clubs"), "guess", twice)
    assert [reason.text for reason in refused.value.reasons] == ["guess: guess each participant at most once"]
