"""What each participant may know: the public rounds (puzzle rules, public cards, the draft's
reveal, the hands' ranking), and a participant's own seat (their tokens, puzzles, cards, hands,
guessing totals and what they peeked). Another's tokens, cards, hands and guesses never show."""

from __future__ import annotations

from typing import Any

from game_core.games.clubs import puzzles
from game_core.games.clubs.models import PUZZLES_PER_ROUND, ROUNDS, ClubsState
from game_core.games.clubs.rules import (
    PHASES,
    TIMELINE,
    earned_tokens,
    result,
    round_a,
    round_b,
    round_tokens,
    usable_cards,
)
from game_core.games.protocol import Result


def view(state: ClubsState, participant: str | None) -> dict[str, Any]:
    public = public_view(state)
    if participant is None:
        return {"public": public}
    return {"public": public, "private": private_view(state, participant)}


def public_view(state: ClubsState) -> dict[str, Any]:
    opened = min(state.phase, ROUNDS)
    rounds = []
    for number in range(1, opened + 1):
        round_state = state.rounds[number - 1]
        shown: dict[str, Any] = {
            "round": number,
            "puzzle_type": round_state.puzzle_type,
            "puzzle_rules": puzzles.RULES[round_state.puzzle_type],
            "community": round_state.deal.community,
            "holes": dict(round_state.deal.holes),
        }
        if round_state.tokens:  # Phase A resolved
            shown["draft"] = [reveal.model_dump(mode="json") for reveal in round_state.reveal]
        if round_state.ranking:  # Phase B resolved
            shown["ranking"] = [placing.model_dump(mode="json") for placing in round_state.ranking]
        rounds.append(shown)
    public: dict[str, Any] = {
        "phase": TIMELINE[state.phase - 1].name if state.phase <= PHASES else None,
        "round_a": round_a(state),
        "round_b": round_b(state),
        "teams": [{"player": player, "guest": guest} for guest, player in state.guests.items()],
        "rounds": rounds,
    }
    if state.phase > PHASES:
        public["final"] = final_view(result(state))
    return public


def private_view(state: ClubsState, participant: str) -> dict[str, Any]:
    seat: dict[str, Any] = {
        "tokens": earned_tokens(state, participant),
        "used_tokens": list(state.used_tokens[participant]),
        "peeks": [peek.model_dump(mode="json") for peek in state.peeks[participant]],
        "rounds": [],
    }
    number_a = round_a(state)
    if number_a is not None:
        round_state = state.rounds[number_a - 1]
        clocks = round_state.clocks.get(participant, {})
        values = round_tokens(round_state, participant)
        seat["puzzles"] = {
            str(n): "solved" if values[n - 1] is not None else "sent" if str(n) in clocks else "not asked"
            for n in range(1, PUZZLES_PER_ROUND + 1)
        }
        # When each puzzle was first sent (ms on the match clock): its clock runs from there.
        seat["puzzles_sent_ms"] = {n: clock.sent_ms for n, clock in sorted(clocks.items())}
    number_b = round_b(state)
    if number_b is not None:
        seat["usable"] = usable_cards(state, participant, number_b)
    for number in range(1, min(state.phase, ROUNDS + 1)):
        round_state = state.rounds[number - 1]
        mine: dict[str, Any] = {"round": number, "won": list(round_state.won.get(participant, []))}
        if participant in round_state.drafts:
            mine["draft"] = round_state.drafts[participant].model_dump(mode="json")
        if round_state.hands:
            mine["hand"] = list(round_state.hands[participant])
            mine["built_by_service"] = participant in round_state.built_by_service
            mine["hand_points"] = round_state.hand_points[participant]
            outcome = round_state.guessing.get(participant)
            mine["guessing_total"] = outcome.total if outcome else 0
        seat["rounds"].append(mine)
    return seat


def final_view(outcome: Result) -> dict[str, Any]:
    """The end, from the result alone: every participant's points, each team's score, the places."""
    details = outcome.details
    return {
        "participant_scores": details["participant_scores"],
        "team_scores": details["team_scores"],
        "teams": details["teams"],
        "standings": [{"place": s.place, "player": s.player, "score": s.score} for s in outcome.standings],
        "finals": details["finals"],
        "death_match": details["death_match"],
        "death_match_opponent": details["death_match_opponent"],
        "lot_decided": details["lot_decided"],
    }


def change_private_seat(state: dict[str, Any], q: str) -> None:
    """Change, in a state's JSON, everything only `q` may know (`Demo.private_seat`).

    Private for good (rulings `clubs`): each round's puzzle clocks and tokens (the host's entries
    too), the tokens used, what a peek told, the draft, the cards received, the hand (ranked
    without being shown), whether the service built it, the guessing outcome (told to the
    guesser alone). Secret until the end: each round's scores (all are shown at the end)."""
    state["used_tokens"][q] = [*state["used_tokens"][q], "7.3"]
    state["peeks"][q] = [*state["peeks"][q], {"participant": q, "round": 1, "tokens": [1, 2, 3]}]
    for shown in state["rounds"]:
        shown["clocks"][q] = {"1": {"sent_ms": 0, "solved_ms": 4_000, "wrong": 1}, "3": {"sent_ms": 0}}
        for tokens in (shown["tokens"], shown["host_tokens"]):
            if q in tokens:
                tokens[q] = [value % 1800 + 1 for value in tokens[q]]
        if q in shown["drafts"]:
            draft = shown["drafts"][q]
            spare = next(card for card in ("2H", "3H", "4H", "5H", "6H", "7H", "8H") if card not in str(draft))
            draft["picks"][0]["card"] = spare
            draft["lowered"] = [] if draft["lowered"] else [1]
        if q in shown["won"]:
            shown["won"][q] = [*shown["won"][q], "2C"]
        if q in shown["hands"]:
            shown["hands"][q] = ["AS"] if shown["hands"][q] != ["AS"] else ["KS"]
            built = set(shown["built_by_service"]) ^ {q}
            shown["built_by_service"] = [p for p in state["participants"] if p in built]
        if q in shown["guessing"]:
            outcome = shown["guessing"][q]
            shown["guessing"][q] = {"total": outcome["total"] + 3, "bonus": not outcome["bonus"], "against": {}}
        if q in shown["scores"] and state["phase"] <= PHASES:
            shown["scores"][q] += 1
