"""The rules of Puzzler's Clubs as pure functions: the timeline, setup, what each submission may
hold, resolving a phase, and the result (the open phase and immediate actions: `actions`).

Phase n (1-8) holds round n's Phase A (puzzles and the draft; n <= 7) and round n-1's Phase B
(building and guessing; n >= 2).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from game_core.errors import Illegal, Reason
from game_core.games.capabilities import teams
from game_core.games.clubs.cards import DECK, best_hand, is_club
from game_core.games.clubs.draft import resolve_draft
from game_core.games.clubs.models import (
    MOST_SECONDS,
    PUZZLE_TYPES,
    PUZZLES_PER_ROUND,
    ROUNDS,
    BuildSubmission,
    ClubsSettings,
    ClubsState,
    Deal,
    DraftSubmission,
    GuessSubmission,
    PuzzleClock,
    RoundState,
)
from game_core.games.clubs.showdown import guessing, hand_points, ranking
from game_core.games.protocol import Model, PhaseKind, Result
from game_core.games.standings import standings

PHASES = ROUNDS + 1
PEEK_COST = 1
LOWERING_COST = 2
PARTICIPANT_ACTIONS = ("puzzle", "answer", "transfer", "peek")


def phase_name(number: int) -> str:
    if number == 1:
        return "1A"
    if number == PHASES:
        return f"{ROUNDS}B"
    return f"{number}A+{number - 1}B"


def accepts(number: int) -> tuple[str, ...]:
    return (("draft",) if number <= ROUNDS else ()) + (("build", "guess") if number >= 2 else ())


TIMELINE = tuple(PhaseKind(phase_name(n), accepts(n)) for n in range(1, PHASES + 1))


def round_a(state: ClubsState) -> int | None:
    """The round whose Phase A is open, if any."""
    return state.phase if state.phase <= ROUNDS else None


def round_b(state: ClubsState) -> int | None:
    """The round whose Phase B is open, if any."""
    return state.phase - 1 if 2 <= state.phase <= PHASES else None


# -- setup ----------------------------------------------------------------------------------------


def setup(settings: ClubsSettings, participants: tuple[str, ...], rng: random.Random) -> ClubsState:
    guests = {guest: team.player for team in teams(participants, 1) for guest in team.guests}
    reasons = _settings_reasons(settings, participants, list(guests.values()))
    if reasons:
        raise Illegal("the Puzzler's Clubs settings do not fit this match", reasons)
    rounds = []
    for number in range(1, ROUNDS + 1):
        kind = settings.puzzles[number - 1] if settings.puzzles else PUZZLE_TYPES[(number - 1) % len(PUZZLE_TYPES)]
        seeds = [rng.randrange(2**32) for _ in range(PUZZLES_PER_ROUND)]
        deal = settings.deals[number - 1] if settings.deals else _deal(participants, rng)
        rounds.append(RoundState(puzzle_type=kind, puzzle_seeds=seeds, deal=deal))
    return ClubsState(
        participants=list(participants),
        guests=guests,
        rounds=rounds,
        used_tokens={p: [] for p in participants},
        peeks={p: [] for p in participants},
        lot_override=settings.lot,
    )


def _deal(participants: tuple[str, ...], rng: random.Random) -> Deal:
    """A fresh deck: the community card and one hole card each, never clubs."""
    cards = rng.sample([card for card in DECK if not is_club(card)], 1 + len(participants))
    return Deal(community=cards[0], holes=dict(zip(participants, cards[1:], strict=True)))


def _settings_reasons(settings: ClubsSettings, participants: tuple[str, ...], players: list[str]) -> list[Reason]:
    reasons = []
    if settings.lot is not None and sorted(settings.lot) != sorted(players):
        reasons.append(Reason("lot_players", "the lot must name every player of the match exactly once"))
    for number, deal in enumerate(settings.deals or [], start=1):
        cards = [deal.community, *deal.holes.values()]
        if sorted(deal.holes) != sorted(participants) or len(set(cards)) != len(cards) or any(map(is_club, cards)):
            text = f"round {number}'s deal must give every participant one hole card: all different, no clubs"
            reasons.append(Reason("deal_cards", text))
    return reasons


# -- what a participant has -----------------------------------------------------------------------


def token_value(clock: PuzzleClock) -> int | None:
    """Whole seconds from sending to the first correct answer (1 to 1800); None while unsolved."""
    if clock.solved_ms is None:
        return None
    return max(1, min(MOST_SECONDS, (clock.solved_ms - clock.sent_ms) // 1000))


def round_tokens(round_state: RoundState, participant: str) -> list[int | None]:
    """A participant's three token values of a round as known now (None: not earned yet)."""
    if participant in round_state.tokens:
        return list(round_state.tokens[participant])
    if participant in round_state.host_tokens:
        return list(round_state.host_tokens[participant])
    clocks = round_state.clocks.get(participant, {})
    return [token_value(clocks[str(n)]) if str(n) in clocks else None for n in range(1, PUZZLES_PER_ROUND + 1)]


def earned_tokens(state: ClubsState, participant: str) -> dict[str, int]:
    """Every token the participant has earned so far ("2.3" -> value), used or not."""
    last = min(state.phase, ROUNDS)
    earned = {}
    for number in range(1, last + 1):
        for puzzle, value in enumerate(round_tokens(state.rounds[number - 1], participant), start=1):
            if value is not None:
                earned[f"{number}.{puzzle}"] = value
    return earned


def usable_cards(state: ClubsState, participant: str, number: int) -> list[str]:
    """The cards a participant may build round `number`'s hand from."""
    round_state = state.rounds[number - 1]
    return [round_state.deal.community, round_state.deal.holes[participant], *round_state.won.get(participant, [])]


# -- checks ---------------------------------------------------------------------------------------


def check(state: ClubsState, participant: str, submission: Model) -> list[Reason]:
    if isinstance(submission, DraftSubmission):
        return draft_reasons(state, participant, submission)
    if isinstance(submission, BuildSubmission):
        return build_reasons(state, participant, submission)
    assert isinstance(submission, GuessSubmission)
    return guess_reasons(state, participant, submission)


def draft_reasons(state: ClubsState, participant: str, draft: DraftSubmission) -> list[Reason]:
    number = round_a(state)
    assert number is not None
    deal = state.rounds[number - 1].deal
    public = {deal.community, *deal.holes.values()}
    earned = earned_tokens(state, participant)
    used = set(state.used_tokens[participant])
    reasons, named = [], set()
    for pick in draft.picks:
        card = pick.card
        if card in public:
            text = f"{card} is the community card or a hole card: not in the draft"
            reasons.append(Reason("card_not_in_draft", text))
        if not is_club(card):
            if pick.token is not None:
                reasons.append(Reason("token_not_club", f"{card} is not a club: it takes no token"))
            continue
        if pick.token is None:
            reasons.append(Reason("token_missing", f"{card} is a club: name one of your unused tokens for it"))
        elif pick.token in named:
            reasons.append(Reason("token_repeated", f"token {pick.token} is named for two clubs; once only"))
        elif pick.token in used:
            reasons.append(Reason("token_used", f"token {pick.token} was used in an earlier draft"))
        elif pick.token not in earned:
            reasons.append(Reason("token_unknown", f"you have not earned token {pick.token} (solve its puzzle first)"))
        if pick.token is not None:
            named.add(pick.token)
    return reasons


def build_reasons(state: ClubsState, participant: str, build: BuildSubmission) -> list[Reason]:
    number = round_b(state)
    assert number is not None
    usable = usable_cards(state, participant, number)
    missing = [card for card in build.cards if card not in usable]
    if not missing:
        return []
    text = f"{', '.join(missing)} not among your cards of round {number} ({', '.join(usable)})"
    return [Reason("card_not_held", text)]


def guess_reasons(state: ClubsState, participant: str, guess: GuessSubmission) -> list[Reason]:
    reasons = []
    for target in (named.participant for named in guess.guesses):
        if target == participant:
            reasons.append(Reason("guess_self", "guess the others' hands, not your own"))
        elif target not in state.participants:
            reasons.append(Reason("not_a_participant", f"{target!r} is not a participant of this match"))
    return reasons


def draft_cost(draft: DraftSubmission) -> int:
    return LOWERING_COST * len(draft.lowered)


def with_round(state: ClubsState, number: int, round_state: RoundState) -> ClubsState:
    rounds = list(state.rounds)
    rounds[number - 1] = round_state
    return state.model_copy(update={"rounds": rounds})


# -- resolving a phase ----------------------------------------------------------------------------


def resolve(
    state: ClubsState,
    drafts: Mapping[str, DraftSubmission | None],
    builds: Mapping[str, BuildSubmission | None],
    guesses: Mapping[str, GuessSubmission | None],
    rng: random.Random,
) -> ClubsState:
    """Round A's tokens fixed (unsolved: 1800) and its draft; round B's hands and guesses; after
    the last phase, the lot."""
    number_a, number_b = round_a(state), round_b(state)
    if number_a is not None:
        state = _resolve_a(state, number_a, drafts)
    if number_b is not None:
        state = _resolve_b(state, number_b, builds, guesses)
    update: dict[str, Any] = {"phase": state.phase + 1}
    if state.phase == PHASES:
        lot = list(state.lot_override or state.players)
        if state.lot_override is None:
            rng.shuffle(lot)
        update["lot"] = lot
    return state.model_copy(update=update)


def _resolve_a(state: ClubsState, number: int, drafts: Mapping[str, DraftSubmission | None]) -> ClubsState:
    round_state = state.rounds[number - 1]
    tokens = {p: [value or MOST_SECONDS for value in round_tokens(round_state, p)] for p in state.participants}
    state = with_round(state, number, round_state.model_copy(update={"tokens": tokens}))
    sent = {p: draft for p, draft in drafts.items() if draft is not None}
    values = {p: earned_tokens(state, p) for p in sent}
    won, reveal = resolve_draft(sent, values)
    used = dict(state.used_tokens)
    for participant, draft in sent.items():
        used[participant] = [*used[participant], *(pick.token for pick in draft.picks if pick.token)]
    round_state = state.rounds[number - 1].model_copy(
        update={"drafts": dict(sent), "won": {p: won.get(p, []) for p in state.participants}, "reveal": reveal}
    )
    return with_round(state, number, round_state).model_copy(update={"used_tokens": used})


def _resolve_b(
    state: ClubsState,
    number: int,
    builds: Mapping[str, BuildSubmission | None],
    guesses: Mapping[str, GuessSubmission | None],
) -> ClubsState:
    hands, by_service = {}, []
    for participant in state.participants:
        build = builds.get(participant)
        if build is None:
            hands[participant] = best_hand(usable_cards(state, participant, number))
            by_service.append(participant)
        else:
            hands[participant] = list(build.cards)
    placings = ranking(hands)
    points = hand_points(hands, placings)
    named = {p: guess.by_participant() for p, guess in guesses.items() if guess is not None}
    outcomes, change = guessing(named, hands)
    before = state.rounds[number - 2].scores if number > 1 else {}
    scores = {p: before.get(p, 0) + points[p] + change[p] for p in state.participants}
    round_state = state.rounds[number - 1].model_copy(
        update={
            "hands": hands,
            "built_by_service": by_service,
            "ranking": placings,
            "hand_points": points,
            "guessing": outcomes,
            "scores": scores,
        }
    )
    return with_round(state, number, round_state)


# -- the result -----------------------------------------------------------------------------------


def team_scores(state: ClubsState, number: int) -> dict[str, int]:
    """Each team's score (player + guest) at the end of round `number`, by player."""
    scores = state.rounds[number - 1].scores
    teams = {player: scores.get(player, 0) for player in state.players}
    for guest, player in state.guests.items():
        teams[player] += scores.get(guest, 0)
    return teams


def garnets_for(team_score: int) -> int:
    return max(0, team_score // 15)


def result(state: ClubsState) -> Result:
    """Teams by their final score; tied teams by their scores at the latest end of a round at which
    they were not all equal, then earlier ones (so: the scores at the ends of rounds 7, 6, ..., 1
    compared in turn), then the lot. The winner goes to the Finals; the other two play the Death
    Match, the higher of them its opponent."""
    by_round = [team_scores(state, number) for number in range(ROUNDS, 0, -1)]
    lot = state.lot or state.players
    merit = {player: tuple(scores[player] for scores in by_round) for player in state.players}
    order = sorted(state.players, key=lambda p: (tuple(-x for x in merit[p]), lot.index(p)))
    finals = by_round[0]
    placed = {player: (merit[player], -lot.index(player)) for player in order}
    participant_scores = state.rounds[ROUNDS - 1].scores
    return Result(
        standings=standings(order, placed, {p: str(finals[p]) for p in order}),
        tol=(order[0],),
        ec=tuple(order[1:]),
        garnets={player: garnets_for(finals[player]) for player in state.players},
        details={
            "team_scores": finals,
            "participant_scores": dict(participant_scores),
            "teams": {player: [guest for guest, p in state.guests.items() if p == player] for player in state.players},
            "round_end_scores": [team_scores(state, number) for number in range(1, ROUNDS + 1)],
            "finals": order[0],
            "death_match": list(order[1:]),
            "death_match_opponent": order[1],
            "lot_decided": len(set(merit.values())) < len(merit),
            "lot": list(state.lot or []),
        },
    )
