"""An EC's acts by mail (service/season/mail.py through mail_in.receive): NAME, SPEND TOL and KEEP
TOL lines in a mail to a match of the season from the EC's registered address, answered in words;
a refused act changes nothing and says why; a redelivered mail changes nothing twice."""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass, replace
from email.message import EmailMessage
from pathlib import Path

from season_memory import MemorySeasonStore, SeasonIds, StepClock
from season_support import domino_ended, six_player_steps

sys.path.append(str(Path(__file__).resolve().parent.parent / "service"))  # the ports' fakes

from crates_driver import Table  # noqa: E402
from test_service_mail_in import receipt  # noqa: E402

from game_core.mail.inbound import parse_message  # noqa: E402
from game_core.service.mail.receive import Outcome, receive  # noqa: E402
from game_core.service.season.lifecycle import apply, create_season  # noqa: E402
from game_core.service.season.mail import read_acts  # noqa: E402
from game_core.service.season.ports import Link  # noqa: E402

FAY, DI, ED = "fay@example.com", "di@example.com", "ed@example.com"


@dataclass
class SeasonMatch:
    """The season's links as the machine leaves them: every match of the season linked to it, and
    the token of its wait on the ECs."""

    season_id: str

    def linked(self, match_id: str) -> Link | None:
        return Link(self.season_id, "match-token", True)

    def token(self, season_id: str) -> str | None:
        return "naming-token"


def season_after(steps: list, names: dict[str, str] | None = None) -> MemorySeasonStore:  # type: ignore[type-arg]
    """The six players' season (season_support: ada is Ada Lovelace, unless `names` say) after `steps`."""
    store = MemorySeasonStore()
    named = {"ada": "Ada Lovelace"} if names is None else names
    cast = [{"id": p, **({"name": named[p]} if p in named else {})} for p in ["ada", "bo", "cy", "di", "ed", "fay"]]
    data = {"cast": cast, "episodes": [{"main": {"game": g}} for g in ("domino", "crates", "clubs")]}
    create_season(store, StepClock(), SeasonIds(), data, season_id="s-1")
    for step in steps:
        apply(store, StepClock(), "s-1", step)
    return store


class Mailbox:
    """A match of the season (fay and di registered by address), its season, and the mail in."""

    def __init__(
        self,
        steps: list | None = None,  # type: ignore[type-arg]
        fay: str = FAY,
        names: dict[str, str] | None = None,
    ) -> None:
        """Domino ended unless `steps` say: ada holds 2 ToL, fay (writing from `fay`) is the one EC."""
        emails = {"fay": fay, "di": DI, "ed": ED}
        self.table = Table.open(players=("fay", "di", "ed"), emails=emails)
        self.seasons = season_after(domino_ended() if steps is None else steps, names)
        self.table.fakes.mailer.sent.clear()

    def send(self, sender: str, text: str, message_id: str | None = None) -> Outcome:
        mail = EmailMessage()
        mail["From"], mail["To"], mail["Subject"] = sender, f"{self.table.match_id}@play.test", "Re: your result"
        mail["Message-ID"] = message_id or f"<{hashlib.sha256(f'{sender}{text}'.encode()).hexdigest()[:12]}@x>"
        mail.set_content(text)
        return self.receive(mail.as_bytes())

    def receive(self, raw: bytes) -> Outcome:
        """The mail `raw` as SES hands it in (its verdicts passing), to the match."""
        ports = replace(self.table.ports, seasons=self.seasons, season_links=SeasonMatch("s-1"))
        return receive(ports, receipt(raw, match_id=self.table.match_id))

    def answers(self) -> list[str]:
        return [parse_message(mail.raw).text for mail in self.table.fakes.mailer.sent]

    def events(self) -> list[str]:
        return [event.type for event in self.seasons.season_events("s-1")]


def test_the_ec_names_by_mail_and_is_told_in_words() -> None:
    box = Mailbox()
    before = box.events()
    assert box.send(FAY, "Hi all,\n\nname di\n\nCheers,\nFay") is Outcome.ANSWERED
    state = box.seasons.season("s-1").state
    assert state.episodes[0].namings[0].opponent == "di" and state.episodes[0].namings[0].by == "ec"
    assert box.events() == [*before, "named", "death_matches_set"]
    [answer] = box.answers()
    assert "Done: you named di as your Death Match opponent." in answer
    assert "Cheers," in answer and "Hi all," in answer  # left unread, and listed
    assert box.table.fakes.workflow.woken == ["naming-token"]  # the season's machine sees it at once


def test_a_refused_naming_says_why_and_changes_nothing() -> None:
    box = Mailbox()
    before = box.events()
    # ada holds 2 ToL (Domino's winner); fay herself is the EC; di is no EC (Domino's EC line: fay)
    assert box.send(FAY, "NAME Ada Lovelace") is Outcome.ANSWERED
    assert box.send(FAY, "NAME fay") is Outcome.ANSWERED
    assert box.send(DI, "NAME bo") is Outcome.ANSWERED
    assert box.send(FAY, "NAME zoe") is Outcome.ANSWERED
    ada, herself, not_ec, nobody = box.answers()
    assert "NAME Ada Lovelace was not done:" in ada and "fay may not name ada: they may name" in ada
    assert "fay may not name fay" in herself
    assert "di is no EC naming an opponent in episode 1" in not_ec
    assert "'zoe' is nobody of this season" in nobody
    assert box.events() == before and box.seasons.season("s-1").state.episodes[0].namings[0].opponent is None
    assert box.table.fakes.workflow.woken == []  # a refused act wakes nobody


def test_someone_already_named_cannot_be_renamed_and_a_redelivery_changes_nothing_twice() -> None:
    box = Mailbox()
    assert box.send(FAY, "NAME di", message_id="<one@x>") is Outcome.ANSWERED
    after = box.events()
    assert box.send(FAY, "NAME di", message_id="<one@x>") is Outcome.REDELIVERED  # the same mail again
    assert box.send(FAY, "NAME DI.", message_id="<two@x>") is Outcome.ANSWERED  # the same act, a new mail
    assert box.send(FAY, "NAME bo", message_id="<three@x>") is Outcome.ANSWERED
    first, again, other = box.answers()
    assert "Done: you named di" in first and "Done: you named di" in again
    assert "NAME bo was not done:" in other and "fay already named di" in other
    assert box.events() == after  # one naming stored, whatever came after


def test_a_player_the_other_ec_named_cannot_be_named_again() -> None:
    # Episode 2 (Crates): di and ed are ECs, di (4th) named bo first; everyone else holds a ToL
    # (bo, cy, ada won one each; ada holds 3), so the ToL rule lapses: ed may name ada or cy
    box = Mailbox(six_player_steps()[:8])
    before = box.events()
    assert box.send(ED, "NAME bo") is Outcome.ANSWERED
    assert box.send(ED, "NAME cy") is Outcome.ANSWERED
    refused, done = box.answers()
    assert "NAME bo was not done:" in refused and "ed may not name bo: they may name ada, cy" in refused
    assert "Done: you named cy as your Death Match opponent." in done
    assert box.events() == [*before, "named", "death_matches_set"]


def test_spending_outside_a_spending_window_is_refused_in_words() -> None:
    box = Mailbox()  # the naming is open: no spending window (and fay holds no ToL)
    assert box.send(FAY, "SPEND TOL") is Outcome.ANSWERED
    answer = " ".join(box.answers()[0].split())
    assert "SPEND TOL was not done:" in answer
    assert "season s-1 is not waiting for that now: episode 1's ECs are naming their opponents" in answer


def test_acts_are_read_line_by_line_and_a_mail_of_moves_is_not_the_seasons() -> None:
    acts, unread = read_acts("Hello,\nKEEP TOL\nName: Ada Lovelace\nthanks") or ([], [])
    assert [(a.act, a.opponent) for a in acts] == [("keep", ""), ("name", "Ada Lovelace")]
    assert unread == ["Hello,", "thanks"]
    assert read_acts("PUSH ada RIGHT\nNAME bo") is None  # moves first: the match's grammar reads it
    assert read_acts("spend token of life!") is not None
