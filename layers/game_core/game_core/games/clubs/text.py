"""Puzzler's Clubs in plain text (play by e-mail): the lines of each sealed submission and of each
immediate action, the text of a view, and the text of an action's answer.

PICK AS 1                        (draft: a card and its priority, six lines)
PICK 7C 2 TOKEN 1.3              (a club names one of your unused tokens)
LOWER 2 5                        (draft: priority numbers lowered, 2 garnets each)
BUILD AS KS QS                   (your hand: 1 to 5 cards)
GUESS bob AS KS QS               (one line per participant guessed; GUESS alone: nobody)

Each line of an action is taken at once, in the order written, and answered in the reply:

PUZZLE 2                         (puzzle 2 of the round is sent; its clock starts)
ANSWER 2 (75-5)*3+1              (the answer as the puzzle's rules write it)
GIVE 3 TO bob                    (garnets: a player to a guest, a guest to a player)
PEEK bob ROUND 2                 (1 garnet: bob's three tokens of round 2)

An answer is read as its words joined by single spaces: commas between them read as spaces.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from game_core.games.capabilities import Board
from game_core.games.clubs.models import (
    ACTIONS,
    SUBMISSIONS,
    BuildSubmission,
    DraftSubmission,
    Guess,
    GuessSubmission,
    Peek,
    Pick,
    PuzzleAnswer,
    PuzzleRequest,
    Transfer,
)
from game_core.games.plain_text import LineForm, LineGrammar, Unreadable, Words
from game_core.games.protocol import Model
from game_core.games.text_layout import listing, name, name_list, numbers, table, wrapped

DRAFT, BUILD, GUESS = "draft", "build", "guess"
PUZZLE, ANSWER, TRANSFER, PEEK = "puzzle", "answer", "transfer", "peek"
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
    """`GUESS` alone guesses nobody; `GUESS bob` alone guesses no cards for bob (no guess)."""
    if not words.more():
        return {"guesses": []}
    participant = words.player("participant")
    return {"guesses": [{"participant": participant, "cards": _cards(words) if words.more() else []}]}


def _puzzle(words: Words) -> dict[str, Any]:
    return {"puzzle": words.number("puzzle")}


def _answer(words: Words) -> dict[str, Any]:
    puzzle = words.number("puzzle")
    said = [words.word("answer")]
    while words.more():
        said.append(words.word("answer"))
    return {"puzzle": puzzle, "answer": " ".join(said)}


def _give(words: Words) -> dict[str, Any]:
    garnets = words.number("garnets")
    words.skip("TO")
    return {"to": words.player("participant"), "garnets": garnets}


def _peek(words: Words) -> dict[str, Any]:
    participant = words.player("participant")
    words.skip("ROUND")
    return {"participant": participant, "round": words.number("round")}


class ClubsText(LineGrammar):
    models = SUBMISSIONS | {kind: ACTIONS[kind] for kind in (PUZZLE, ANSWER, TRANSFER, PEEK)}
    forms = (
        LineForm(("PICK",), DRAFT, _pick, "PICK <card> <priority> [TOKEN <round.puzzle>]", "six lines", many=True),
        LineForm(("LOWER",), DRAFT, _lower, "LOWER <priority> [...]", "2 garnets each"),
        LineForm(("BUILD",), BUILD, _build, "BUILD <card> [...]", "1 to 5 cards"),
        LineForm(
            ("GUESS",), GUESS, _guess, "GUESS [<participant> <card> ...]", "one line each; alone: nobody", many=True
        ),
        LineForm(("PUZZLE",), PUZZLE, _puzzle, "PUZZLE <1-3>", "sent at once; its clock starts", action=True),
        LineForm(("ANSWER",), ANSWER, _answer, "ANSWER <puzzle> <answer>", "as the puzzle's rules say", action=True),
        LineForm(("GIVE",), TRANSFER, _give, "GIVE <garnets> TO <participant>", "player to guest or back", action=True),
        LineForm(("PEEK",), PEEK, _peek, "PEEK <participant> ROUND <round>", "1 garnet: their tokens", action=True),
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
        PUZZLE: PuzzleRequest(puzzle=2),
        ANSWER: PuzzleAnswer(puzzle=2, answer="(75-5)*3+1"),
        TRANSFER: Transfer(to="bob", garnets=3),
        PEEK: Peek(participant="bob", round=2),
    }

    def example(self, kind: str, phase: str) -> Model:
        """Tokens and peeks of a round already played: the phase's draft is of round r ("3A+2B":
        r = 3), so the pick's token is of round r - 1 (none in round 1: no token is sure to be
        earned yet) and the peek looks at round r - 1 (round 1 while it is the only one)."""
        example = self.examples[kind]
        drafted = re.match(r"\d+", phase)
        if drafted is None:
            return example
        played = int(drafted[0]) - 1
        if isinstance(example, DraftSubmission):
            token = f"{played}.3" if played else None
            picks = [pick.model_copy(update={"token": token}) if pick.token else pick for pick in example.picks]
            return example.model_copy(update={"picks": picks})
        if isinstance(example, Peek):
            return example.model_copy(update={"round": max(played, 1)})
        return example

    def write_text(self, kind: str, submission: Model) -> list[str]:
        if isinstance(submission, DraftSubmission):
            lines = [
                f"PICK {pick.card} {pick.priority}" + (f" TOKEN {pick.token}" if pick.token else "")
                for pick in submission.picks
            ]
            return lines + ([f"LOWER {numbers(submission.lowered)}"] if submission.lowered else [])
        if isinstance(submission, BuildSubmission):
            return [f"BUILD {' '.join(submission.cards)}"]
        if isinstance(submission, PuzzleRequest):
            return [f"PUZZLE {submission.puzzle}"]
        if isinstance(submission, PuzzleAnswer):
            return [f"ANSWER {submission.puzzle} {submission.answer}"]
        if isinstance(submission, Transfer):
            return [f"GIVE {submission.garnets} TO {submission.to}"]
        if isinstance(submission, Peek):
            return [f"PEEK {submission.participant} ROUND {submission.round}"]
        assert isinstance(submission, GuessSubmission)
        return [" ".join(["GUESS", guess.participant, *guess.cards]) for guess in submission.guesses] or ["GUESS"]

    def render_answer(self, kind: str, answer: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
        if kind == PUZZLE:
            return _puzzle_sent(answer)
        if kind == ANSWER:
            token = f"{answer['round']}.{answer['puzzle']}"
            if answer["correct"]:
                return [f"Right: puzzle {answer['puzzle']} is solved. Your token {token} is {answer['token']} seconds."]
            return [f"Wrong: puzzle {answer['puzzle']} is not solved; its clock keeps running."]
        if kind == TRANSFER:
            return [f"You gave {_garnets(answer['garnets'])} to {name(names, answer['to'])}."]
        assert kind == PEEK
        tokens = ", ".join(
            f"{answer['round']}.{puzzle}: {seconds} s" for puzzle, seconds in enumerate(answer["tokens"], start=1)
        )
        return wrapped(f"{name(names, answer['participant'])}'s tokens of round {answer['round']}: {tokens}.")

    def draw_board(self, view: Mapping[str, Any], names: Mapping[str, str], viewer: str | None) -> Board:
        """The cards, puzzles, tokens and teams on the player's page (`board`)."""
        from game_core.games.clubs import board  # only a page draws it: not at import

        return board.draw(view, names, viewer)

    def render_view(self, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
        public = view["public"]
        phase = public["phase"]
        lines = [f"Puzzler's Clubs: {'phase ' + phase if phase else 'the match is over'}."]
        teams = [f"{name(names, team['player'])} with {name(names, team['guest'])}" for team in public["teams"]]
        lines += listing(f"Teams: {'; '.join(teams)}")
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


def _puzzle_sent(sent: Mapping[str, Any]) -> list[str]:
    """A puzzle as sent: its rules, then the puzzle itself, and how to answer it."""
    lines = [f"Round {sent['round']}, puzzle {sent['puzzle']}:", *sent["rules"], "", *sent["text"], ""]
    if sent["solved"]:
        return [*lines, "You have solved it already."]
    return [*lines, f"Its clock runs from its first sending. Answer: ANSWER {sent['puzzle']} <your answer>"]


def _garnets(amount: int) -> str:
    return f"{amount} garnet" + ("" if amount == 1 else "s")


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
