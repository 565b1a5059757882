"""Puzzler's Clubs in plain text (play by e-mail): the lines of each sealed submission and the text
of a view. Immediate actions (puzzles, answers, transfers, peeks) are not carried by mail: they are
answered at once, over the webhook.

PICK AS 1                        (draft: a card and its priority, six lines)
PICK 7C 2 TOKEN 1.3              (a club names one of your unused tokens)
LOWER 2 5                        (draft: priority numbers lowered, 2 garnets each)
BUILD AS KS QS                   (your hand: 1 to 5 cards)
GUESS bob AS KS QS               (one line per participant guessed)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from game_core.games.clubs.models import BuildSubmission, DraftSubmission, Guess, GuessSubmission, Pick
from game_core.games.plain_text import (
    LineForm,
    LineGrammar,
    Unreadable,
    Words,
    name,
    name_list,
    numbers,
    table,
    wrapped,
)
from game_core.games.protocol import Model

DRAFT, BUILD, GUESS = "draft", "build", "guess"
CARD_WORD = re.compile(r"^(10|[2-9TJQKA])[CSHD]$")


def _card(words: Words) -> str:
    return words.shaped("card", CARD_WORD, "a card (rank 2-9, T, J, Q, K, A then suit C, S, H, D: TH)").replace(
        "10", "T"
    )


def _cards(words: Words) -> list[str]:
    cards = [_card(words)]
    while words.more():
        cards.append(_card(words))
    return cards


def _pick(words: Words) -> dict[str, Any]:
    pick: dict[str, Any] = {"card": _card(words), "priority": words.number("priority")}
    if words.more():
        words.skip("TOKEN")
        token = words.word("token")
        if not re.fullmatch(r"[0-9]+\.[0-9]+", token):
            raise Unreadable("bad_token", f'"{token}" is not a token (round.puzzle, as 2.3)')
        pick["token"] = token
    return {"picks": [pick]}


def _lower(words: Words) -> dict[str, Any]:
    lowered = [words.number("priority")]
    while words.more():
        lowered.append(words.number("priority"))
    return {"lowered": lowered}


def _build(words: Words) -> dict[str, Any]:
    return {"cards": _cards(words)}


def _guess(words: Words) -> dict[str, Any]:
    participant = words.player("participant")
    return {"guesses": [{"participant": participant, "cards": _cards(words)}]}


class ClubsText(LineGrammar):
    models = {DRAFT: DraftSubmission, BUILD: BuildSubmission, GUESS: GuessSubmission}
    forms = (
        LineForm(("PICK",), DRAFT, _pick, "PICK <card> <priority> [TOKEN <round.puzzle>]", "six lines", many=True),
        LineForm(("LOWER",), DRAFT, _lower, "LOWER <priority> [...]", "2 garnets each"),
        LineForm(("BUILD",), BUILD, _build, "BUILD <card> [...]", "1 to 5 cards"),
        LineForm(("GUESS",), GUESS, _guess, "GUESS <participant> <card> [...]", "one line each", many=True),
    )
    examples = {
        DRAFT: DraftSubmission(
            picks=[
                Pick(card="AS", priority=1),
                Pick(card="7C", priority=2, token="1.3"),
                Pick(card="KH", priority=3),
                Pick(card="QD", priority=4),
                Pick(card="2S", priority=5),
                Pick(card="9H", priority=6),
            ],
            lowered=[2],
        ),
        BUILD: BuildSubmission(cards=["AS", "KS", "QS"]),
        GUESS: GuessSubmission(guesses=[Guess(participant="bob", cards=["AS", "KS"])]),
    }

    def write_text(self, kind: str, submission: Model) -> list[str]:
        if isinstance(submission, DraftSubmission):
            lines = [
                f"PICK {pick.card} {pick.priority}" + (f" TOKEN {pick.token}" if pick.token else "")
                for pick in submission.picks
            ]
            return lines + ([f"LOWER {numbers(submission.lowered)}"] if submission.lowered else [])
        if isinstance(submission, BuildSubmission):
            return [f"BUILD {' '.join(submission.cards)}"]
        assert isinstance(submission, GuessSubmission)
        return [f"GUESS {guess.participant} {' '.join(guess.cards)}" for guess in submission.guesses]

    def render_view(self, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
        public = view["public"]
        phase = public["phase"]
        lines = [f"Puzzler's Clubs: {'phase ' + phase if phase else 'the match is over'}."]
        teams = [f"{name(names, team['player'])} with {name(names, team['guest'])}" for team in public["teams"]]
        lines.append(f"Teams: {'; '.join(teams)}")
        for shown in public["rounds"]:
            lines += ["", f"Round {shown['round']}: puzzles of type {shown['puzzle_type']}"]
            lines += [f"  {line}" for line in shown["puzzle_rules"]]
            holes = ", ".join(f"{name(names, p)} {card}" for p, card in shown["holes"].items())
            lines += wrapped(f"Community card {shown['community']}; hole cards: {holes}")
            if "draft" in shown:
                rows = [[c["card"], str(c["drafted"]), "given" if c["given"] else "discarded"] for c in shown["draft"]]
                lines += ["Draft:", *table(["Card", "Drafted", "Outcome"], rows)]
            if "ranking" in shown:
                rows = [[str(p["place"]), name_list(names, p["participants"])] for p in shown["ranking"]]
                lines += ["Hands ranked:", *table(["Place", "Participants"], rows)]
        if public.get("final"):
            lines += ["", *_final(public["final"], names)]
        if view.get("private"):
            lines += ["", *_private(view["private"], names)]
        return "\n".join(lines)


def _final(final: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    rows = [[str(s["place"]), name(names, s["player"]), s["score"]] for s in final["standings"]]
    lines = ["Final standings (player + guest):", *table(["Place", "Player", "Team"], rows)]
    scores = [[name(names, p), str(points)] for p, points in final["participant_scores"].items()]
    lines += ["Points:", *table(["Participant", "Points"], scores)]
    lines.append(f"To the Finals: {name(names, final['finals'])}")
    lines.append(f"Death Match: {name_list(names, final['death_match'])}")
    if final["lot_decided"]:
        lines.append("A tie was decided by the lot.")
    return lines


def _private(private: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    tokens = ", ".join(f"{token}: {value}" for token, value in private["tokens"].items()) or "none yet"
    lines = [*wrapped(f"Your tokens: {tokens}"), f"Used: {', '.join(private['used_tokens']) or 'none'}"]
    if "puzzles" in private:
        lines.append("Your puzzles: " + ", ".join(f"{n} {status}" for n, status in private["puzzles"].items()))
    if "usable" in private:
        lines.append(f"Cards you may build from: {' '.join(private['usable'])}")
    for mine in private["rounds"]:
        said = f"Round {mine['round']}: received {' '.join(mine['won']) or 'nothing'}"
        if "hand" in mine:
            said += f"; hand {' '.join(mine['hand'])} ({mine['hand_points']} points)"
            said += f"; guessing {mine['guessing_total']:+d}"
        lines += wrapped(said)
    for peek in private["peeks"]:
        lines.append(f"Peeked: {name(names, peek['participant'])} round {peek['round']}: {numbers(peek['tokens'])}")
    return lines
