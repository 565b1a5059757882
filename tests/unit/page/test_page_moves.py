"""Sending moves through the page on the fakes (Pushing Crates, Ada and Bo): a form's fields become
the webhook's JSON and go through the same submit path; a refusal comes back as the page with the
service's reasons in the form that was sent, what was written kept; a resend of the same form
(same delivery key) changes nothing; a form not from the session's page is refused."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from game_core.errors import Unauthorized
from game_core.service.page import play, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from crates_driver import HOUR, Table  # noqa: E402

MID = "m-000000000001"


def form(ada: Any, kind: str, fields: dict[str, str], phase: str = "Pregame", number: int = 1) -> dict[str, str]:
    """The form as the page posts it (the hidden fields, each input as f.<path>)."""
    hidden = {"csrf": ada.csrf, "kind": kind, "phase": phase, "number": str(number), "delivery": play.delivery_key()}
    return hidden | {f"f.{name}": value for name, value in fields.items()}


def multipliers(*values: str) -> dict[str, str]:
    return {f"multipliers.{i}": value for i, value in enumerate(values)}


def test_a_move_sent_by_the_form_is_stored_as_the_webhook_would_store_it() -> None:
    table = Table.open()
    ada = play.sign_in(table.ports, MID, "secret-1")
    seen = play.send_move(
        table.ports, MID, ada.cookie, form(ada, "multipliers", multipliers("2", "1", "1", "0", "-1", "-1"))
    )
    assert seen.refusal is None
    assert table.fakes.store.submissions(MID, 1)["ada"] == {"multipliers": {"multipliers": [2, 1, 1, 0, -1, -1]}}
    [accepted] = table.events("submission_accepted")
    assert accepted.data["channel"] == "page"
    page = render.page(play.show(table.ports, MID, ada.cookie))
    assert '<pre id="sent-multipliers">MULTIPLIERS 2 1 1 0 -1 -1</pre>' in page
    assert '<p id="owes">Waiting for: bo.</p>' in page  # Ada is done; Bo still owes his
    # The form holds what stands, to edit and send again: 2 1 1 0 -1 -1 in its six inputs.
    chosen = r'name="f\.multipliers\.(\d)" required>(?:(?!</select>).)*<option value="(-?\d)" selected>'
    filled = re.findall(chosen, page)  # each select's chosen option
    assert filled == [("0", "2"), ("1", "1"), ("2", "1"), ("3", "0"), ("4", "-1"), ("5", "-1")]


def test_a_refused_move_shows_the_services_reasons_in_its_form_and_keeps_what_was_written() -> None:
    table = Table.open()
    ada = play.sign_in(table.ports, MID, "secret-1")
    # Six numbers, but not the multiset 2, 1, 1, 0, -1, -1 the rules ask for: the game refuses it.
    sent = form(ada, "multipliers", multipliers("2", "2", "1", "0", "-1", "-1"))
    seen = play.send_move(table.ports, MID, ada.cookie, sent)
    assert seen.refusal is not None and seen.refusal.form == "move-multipliers"
    assert table.fakes.store.submissions(MID, 1) == {}
    page = render.page(seen)
    form_html = page[page.index('<form id="move-multipliers"') :]
    form_html = form_html[: form_html.index("</form>")]
    assert '<div id="reasons" role="alert">' in form_html
    for reason in seen.refusal.error.reasons:
        assert f'data-code="{reason.code}"' in form_html
    as_written = r'name="f\.multipliers\.1" required>(?:(?!</select>).)*<option value="2" selected>'
    assert re.search(as_written, form_html)  # as written, to correct


def test_a_word_where_a_number_goes_is_the_services_to_refuse() -> None:
    table = Table.open()
    ada = play.sign_in(table.ports, MID, "secret-1")
    seen = play.send_move(
        table.ports, MID, ada.cookie, form(ada, "multipliers", multipliers("2", "1", "1", "0", "-1", "x"))
    )
    assert seen.refusal is not None
    assert [(r.code, r.text) for r in seen.refusal.error.reasons] == [
        ("int_type", "multipliers.5: Input should be a valid integer")
    ]
    # Beside the sixth field, which it names, and tied to it for a screen reader:
    page = render.page(seen)
    assert (
        '<span class="error" id="move-multipliers-multipliers-5-error">multipliers, number 6: Input should be' in page
    )
    assert 'aria-describedby="move-multipliers-multipliers-5-error" aria-invalid="true"' in page
    assert page.count('aria-invalid="true"') == 1


def test_the_same_form_sent_twice_changes_nothing_the_second_time_and_a_new_one_replaces() -> None:
    table = Table.open()
    ada = play.sign_in(table.ports, MID, "secret-1")
    first = form(ada, "multipliers", multipliers("2", "1", "1", "0", "-1", "-1"))
    play.send_move(table.ports, MID, ada.cookie, first)
    # The browser sends the same POST again (same delivery key), even edited: the first reply stands.
    again = first | multipliers_fields("-1", "-1", "0", "1", "1", "2")
    assert play.send_move(table.ports, MID, ada.cookie, again).refusal is None
    assert table.fakes.store.submissions(MID, 1)["ada"]["multipliers"]["multipliers"] == [2, 1, 1, 0, -1, -1]
    assert len(table.events("submission_accepted")) == 1
    # A new rendering of the form (a new key) replaces it.
    play.send_move(table.ports, MID, ada.cookie, form(ada, "multipliers", multipliers("-1", "-1", "0", "1", "1", "2")))
    assert table.fakes.store.submissions(MID, 1)["ada"]["multipliers"]["multipliers"] == [-1, -1, 0, 1, 1, 2]


def multipliers_fields(*values: str) -> dict[str, str]:
    return {f"f.{name}": value for name, value in multipliers(*values).items()}


def test_a_form_without_the_sessions_token_is_refused_and_nothing_is_stored() -> None:
    table = Table.open()
    ada = play.sign_in(table.ports, MID, "secret-1")
    bo = play.sign_in(table.ports, MID, "secret-2")
    for token in ("", bo.csrf):
        sent = form(ada, "multipliers", multipliers("2", "1", "1", "0", "-1", "-1")) | {"csrf": token}
        seen = play.send_move(table.ports, MID, ada.cookie, sent)
        assert seen.refusal is not None and isinstance(seen.refusal.error, Unauthorized)
    assert table.fakes.store.submissions(MID, 1) == {}


def test_a_round_of_pushes_from_the_rows_and_a_late_one_refused() -> None:
    table = Table.open()
    for secret in ("secret-1", "secret-2"):
        player = play.sign_in(table.ports, MID, secret)
        play.send_move(
            table.ports, MID, player.cookie, form(player, "multipliers", multipliers("2", "1", "1", "0", "-1", "-1"))
        )
    table.resolve_at_deadline()
    ada = play.sign_in(table.ports, MID, "secret-1")
    # Rows 1 and 3 filled, row 2 left empty: two pushes; Bo named by name in any case.
    rows = {
        "pushes.0.crate": "ada",
        "pushes.0.direction": "right",
        "pushes.2.crate": "BO",
        "pushes.2.direction": "left",
    }
    sent = form(ada, "round", rows | {"ground": "ice"}, "Round 1", 2)
    assert play.send_move(table.ports, MID, ada.cookie, sent).refusal is None
    assert table.fakes.store.submissions(MID, 2)["ada"]["round"] == {
        "pushes": [{"crate": "ada", "direction": "right"}, {"crate": "bo", "direction": "left"}],
        "ground": "ice",
    }
    table.fakes.clock.advance(HOUR)  # past Round 1's deadline
    late = play.send_move(table.ports, MID, ada.cookie, form(ada, "round", {"ground": "stone"}, "Round 1", 2))
    assert late.refusal is not None and late.refusal.error.code == "late"
