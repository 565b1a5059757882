"""Immediate actions and ready votes through the page on the fakes: Clubs' puzzle request and its
answer (the time taken shown), a transfer sent twice by the same form taken once; a ready vote
where early close is off (Pushing Crates)."""

from __future__ import annotations

import sys
from html import escape
from pathlib import Path

from game_core.service.page import play, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from crates_driver import Table  # noqa: E402
from test_service_mail_actions import MID, clubs_match, sent_puzzle, state  # noqa: E402

from local_stack.bots.clubs import solve  # noqa: E402


def signed_in(ports, participant: str, match_id: str = MID) -> play.sessions.Session:
    """The session of `participant` (the fakes hand out secret-1, secret-2, ... in seating order)."""
    for n in range(1, 13):
        try:
            found = play.sign_in(ports, match_id, f"secret-{n}")
        except Exception:
            continue
        if found.participant == participant:
            return found
    raise AssertionError(participant)


def action(who, kind: str, **fields: str) -> dict[str, str]:
    hidden = {"csrf": who.csrf, "kind": kind, "delivery": play.delivery_key()}
    return hidden | {f"f.{name}": value for name, value in fields.items()}


def test_a_puzzle_requested_on_the_page_is_shown_and_its_answer_gives_the_time_taken() -> None:
    fakes = clubs_match()
    p1 = signed_in(fakes.ports, "p1")
    page = render.page(play.show(fakes.ports, MID, p1.cookie))
    assert all(f'<form id="action-{kind}"' in page for kind in ("puzzle", "answer", "transfer", "peek"))
    assert 'id="action-tokens"' not in page  # the host's, not a participant's

    seen, key = play.act(fakes.ports, MID, p1.cookie, action(p1, "puzzle", puzzle="1"))
    assert seen.refusal is None and key is not None
    shown = render.page(play.show(fakes.ports, MID, p1.cookie, key))  # the page the redirect shows
    assert '<section id="answer"' in shown and escape(sent_puzzle(fakes, 1)["text"][0]) in shown

    # Answered right 95 s after the request (12:00:00 to 12:01:35): the token is 95 seconds. Until
    # then the answer box's clock says how long it has run, from the participant's own view.
    fakes.clock.advance(95)
    running = render.page(play.show(fakes.ports, MID, p1.cookie))
    assert (
        '<li>Puzzle 1: sent Tuesday 1 December, 12:00 UTC; <time id="puzzle-1-clock" class="elapsed" '
        'datetime="2026-12-01T12:00:00Z" data-now="2026-12-01T12:01:35Z">1 min 35 s</time> taken so far.</li>'
    ) in running
    _, key = play.act(
        fakes.ports, MID, p1.cookie, action(p1, "answer", puzzle="1", answer=solve(sent_puzzle(fakes, 1)))
    )
    assert key is not None
    shown = render.page(play.show(fakes.ports, MID, p1.cookie, key))
    assert "Right: puzzle 1 is solved. Your token 1.1 is 95 seconds." in shown
    assert "<li>Puzzle 1: solved.</li>" in shown
    other = render.page(play.show(fakes.ports, MID, signed_in(fakes.ports, "p2").cookie))
    assert 'id="puzzle-clocks"' not in other  # p2 asked for none; p1's clock is p1's alone
    assert state(fakes).rounds[0].clocks["p1"]["1"].solved_ms is not None


def test_the_same_transfer_form_sent_twice_moves_the_garnets_once() -> None:
    fakes = clubs_match(garnets=10)
    p1 = signed_in(fakes.ports, "p1")
    give = action(p1, "transfer", to="p1g1", garnets="3")
    for _ in range(2):
        assert play.act(fakes.ports, MID, p1.cookie, give)[0].refusal is None
    # 10 - 3, once
    assert play.show(fakes.ports, MID, p1.cookie).view.balance == 7


def test_another_participants_answer_key_shows_nothing_of_theirs() -> None:
    fakes = clubs_match()
    p1, p2 = signed_in(fakes.ports, "p1"), signed_in(fakes.ports, "p2")
    _, key = play.act(fakes.ports, MID, p1.cookie, action(p1, "puzzle", puzzle="1"))
    assert play.show(fakes.ports, MID, p2.cookie, key).answer is None  # kept under p1's name only


def test_a_ready_vote_from_the_page_once_the_move_is_in() -> None:
    table = Table.open()  # early close off
    mid = table.match_id
    ada = signed_in(table.ports, "ada", mid)
    before = render.page(play.show(table.ports, mid, ada.cookie))
    assert 'id="ready-hint"' in before and '<form id="ready"' not in before  # her move first
    multipliers = {f"f.multipliers.{i}": v for i, v in enumerate(("2", "1", "1", "0", "-1", "-1"))}
    hidden = {"csrf": ada.csrf, "kind": "multipliers", "phase": "Pregame", "delivery": play.delivery_key()}
    play.send_move(table.ports, mid, ada.cookie, hidden | multipliers)
    page = render.page(play.show(table.ports, mid, ada.cookie))
    assert '<form id="ready"' in page and '<input type="hidden" name="ready" value="true">' in page
    seen, key = play.act(table.ports, mid, ada.cookie, {"csrf": ada.csrf, "kind": "ready", "ready": "true"})
    assert seen.refusal is None and key is None
    after = render.page(play.show(table.ports, mid, ada.cookie))
    assert '<p id="ready-votes">Ready to resolve early: ada.</p>' in after
    assert '<input type="hidden" name="ready" value="false">' in after  # to take it back


def test_an_old_ready_form_sent_again_cannot_undo_a_later_vote() -> None:
    # Ada votes READY (first form), takes it back (second form), then her browser sends the first
    # form again: the first vote's answer stands as it was and she stays not ready.
    table = Table.open()  # early close off
    mid = table.match_id
    ada = signed_in(table.ports, "ada", mid)
    multipliers = {f"f.multipliers.{i}": v for i, v in enumerate(("2", "1", "1", "0", "-1", "-1"))}
    hidden = {"csrf": ada.csrf, "kind": "multipliers", "phase": "Pregame", "delivery": play.delivery_key()}
    play.send_move(table.ports, mid, ada.cookie, hidden | multipliers)
    first, second = play.delivery_key(), play.delivery_key()
    forms = {
        key: {"csrf": ada.csrf, "kind": "ready", "ready": ready, "delivery": key}
        for key, ready in ((first, "true"), (second, "false"))
    }
    for key in (first, second, first):
        play.act(table.ports, mid, ada.cookie, forms[key])
    assert table.match().phase is not None and table.match().phase.ready == ()
    assert [e.data["ready"] for e in table.events("ready_vote")] == [True, False]
