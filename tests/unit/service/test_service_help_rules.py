"""HELP RULES by mail (on the fakes): the answer is the game's rules as written for players, whole,
in the plain-text mail, with the rule set the match plays; HELP says HELP RULES exists."""

from __future__ import annotations

import hashlib
from email.message import EmailMessage

import pytest
from fakes import Fakes

from game_core.games import registry
from game_core.mail.inbound import parse_message
from game_core.mail.ses import Receipt, Verdicts
from game_core.match.model import MatchRequest
from game_core.service.mail.receive import Outcome, receive
from game_core.service.matches.lifecycle import create_match

MID = "m-000000000001"
PASSING = Verdicts(spf="PASS", dkim="PASS", dmarc="PASS", spam="PASS", virus="PASS")
ADA, HOST = "ada@example.org", "host@example.org"


def open_match(fakes: Fakes, game: str, rule_set: str | None = None) -> None:
    players = [{"id": "ada", "name": "Ada", "email": ADA}, {"id": "bo", "name": "Bo", "email": "bo@example.org"}]
    request = {
        "game": game,
        "settings": {"rule_set": rule_set} if rule_set else {},
        "players": players,
        "host_email": HOST,
        "seed": 7,
    }
    create_match(fakes.ports, MatchRequest.model_validate(request))
    fakes.mailer.sent.clear()


def mail(fakes: Fakes, sender: str, text: str) -> str:
    """The answer's text to a mail of `text` from `sender`."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, f"{MID}@play.test", f"[{MID}] hello"
    message["Message-ID"] = f"<{hashlib.sha256(text.encode()).hexdigest()[:12]}@example.org>"
    message.set_content(text)
    raw = message.as_bytes()
    assert receive(fakes.ports, Receipt("ses-1", (f"{MID}@play.test",), PASSING, "", raw)) == Outcome.ANSWERED
    (answer,) = fakes.mailer.sent
    assert answer.to == sender
    return parse_message(answer.raw).text


@pytest.mark.parametrize(("game", "rule_set"), [("crates", None), ("palindrome", "mm5"), ("abstrac", "deal")])
def test_help_rules_answers_with_the_games_rules_whole_and_the_rule_set_played(game, rule_set) -> None:
    fakes = Fakes()
    open_match(fakes, game, rule_set)
    text = mail(fakes, ADA, "help  rules")  # any case and spacing, as every command
    rules = registry.load(game).rules_text
    assert text.startswith("Hello Ada,\n")
    assert rules.strip() in text  # whole, line for line
    playing = f"This match plays the {rule_set} rule set."
    assert (playing in text) == (rule_set is not None)
    assert "Nothing was submitted" not in text


def test_the_host_may_ask_for_the_rules_too() -> None:
    fakes = Fakes()
    open_match(fakes, "domino")
    assert registry.load("domino").rules_text.strip() in mail(fakes, HOST, "HELP RULES")


def test_help_names_help_rules() -> None:
    fakes = Fakes()
    open_match(fakes, "crates")
    text = mail(fakes, ADA, "HELP")
    assert "HELP RULES for the game's rules" in " ".join(text.split())
    assert "# Pushing Crates: the rules" not in text  # HELP alone is the open phase's lines
