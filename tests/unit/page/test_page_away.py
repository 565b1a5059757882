"""Absences and graces on the page (issue 22 items 1 and 2), on the fakes: an absence declared by
the page's form (dates read in the participant's zone, said beside the inputs), the deadline it
holds and everyone's away lines, withdrawn by its own form, a refusal's reasons in the form;
each participant's graces left and a grace hold; and which pages reload themselves."""

from __future__ import annotations

from talk_table import Talk

from game_core.service.matches import grace, phases
from game_core.service.page import play

FIRST = "Tuesday 1 December, 00:00 (Europe/Paris) - Monday 30 November, 23:00 UTC"
LAST = "Wednesday 2 December, 00:00 (Europe/Paris) - Tuesday 1 December, 23:00 UTC"
"""Ada, in Paris, away on the 1st: from its midnight there (23:00 UTC the day before) until the
next midnight there (23:00 UTC on the 1st)."""


def test_an_absence_declared_on_the_page_holds_the_deadline_and_everyone_sees_who_is_away() -> None:
    table = Talk.open()
    phases.wait(table.ports, table.match_id, 1, 0, "tok-1")  # the Pregame waits until 13:00 UTC
    page = table.page("ada")
    assert 'id="absence-from" name="f.from" required aria-describedby="absence-zone"' in page
    assert "Whole days, read in your time zone, Europe/Paris.</p>" in page
    assert "Whole days, read in UTC (you have set no time zone; ZONE by mail sets one).</p>" in table.page("bo")

    # The last day left empty: that one day. 13:00 UTC falls in it: the deadline moves to its end
    # plus the margin, 24 hours: Wednesday 2 December, 23:00 UTC (Thursday, 00:00 in Paris).
    seen, notice = table.absence("ada", table.form("ada", **{"f.from": "2026-12-01", "f.to": ""}))
    assert seen.refusal is None and notice == "absence-held"
    [declared] = table.logged("absence_declared")
    assert (declared["from"], declared["until"], declared["channel"]) == (
        "2026-11-30T23:00:00Z",
        "2026-12-01T23:00:00Z",
        "page",
    )
    ada = table.page("ada", play.ABSENCE_NOTICES[notice])
    assert '<p id="notice" role="status">Your absence is declared; the phase waits for you' in ada
    assert f'<ul id="your-absences"><li>Away from {FIRST} until {LAST}.</li></ul>' in ada
    assert "Thursday 3 December, 00:00 (Europe/Paris) - Wednesday 2 December, 23:00 UTC</time>" in ada
    bo = table.page("bo")
    assert '<p id="held-for">The deadline is held for an announced absence: Ada Lovelace.</p>' in bo
    away = "<li>Ada Lovelace is away from Monday 30 November, 23:00 UTC until Tuesday 1 December, 23:00 UTC.</li>"
    assert away in bo and 'id="your-absences"' not in bo and 'id="absence-cancel"' not in bo

    # Sent again (a reload of the POST): it stands already, nothing changes.
    assert table.absence("ada", table.form("ada", **{"f.from": "2026-12-01"}))[1] == "absence-unchanged"
    assert len(table.logged("absence_declared")) == 1

    # Withdrawn by its own form a minute on: under way, it ends now (12:01 UTC); the moved deadline stays.
    assert 'id="absence-cancel"' in ada
    table.fakes.clock.advance(60)
    assert table.absence("ada", table.form("ada", cancel="1"))[1] == "absence-withdrawn"
    assert table.absence("ada", table.form("ada", cancel="1"))[1] == "absence-none"
    after = table.page("ada")
    assert 'id="your-absences"' not in after and "Wednesday 2 December, 23:00 UTC</time>" in after
    # Still listed as away during this phase (opened at 12:00): from 23:00 on the 30th until 12:01.
    assert "<li>Ada Lovelace is away from Monday 30 November, 23:00 UTC until Tuesday 1 December, 12:01 UTC.</li>" in (
        table.page("cy")
    )


def test_a_refused_absence_shows_why_in_its_form_with_the_dates_kept() -> None:
    table = Talk.open()
    fields = {"f.from": "2026-12-05", "f.to": "2026-12-03"}
    seen, notice = table.absence("ada", table.form("ada", **fields))
    assert notice == "" and seen.refusal is not None and seen.refusal.form == "absence"
    from game_core.service.page import render

    form = render.page(seen).split('<form id="absence"')[1].split("</form>")[0]
    assert '<li data-code="ends_before_it_begins">the absence ends before it begins' in form
    assert 'value="2026-12-05"' in form and 'value="2026-12-03"' in form
    assert table.logged("absence_declared") == []
    seen, _ = table.absence("ada", table.form("ada", **{"f.from": "", "f.to": "2026-12-03"}))  # no first day
    assert seen.refusal is not None and [r.code for r in seen.refusal.error.reasons] == ["absence_from"]


def test_a_match_without_absences_says_so_and_offers_no_form() -> None:
    page = Talk.open(absence_rules={"days": 0}).page("bo")
    assert '<p id="absence-rules">The host allows no absences in this match.</p>' in page
    assert '<form id="absence"' not in page


def test_graces_left_and_a_grace_hold_are_shown_where_the_match_has_graces() -> None:
    assert 'id="graces"' not in Talk.open().page("ada")  # a match without graces says nothing of them
    table = Talk.open(graces=2, grace_seconds=43_200)
    # Two graces of 12 hours each.
    said = "You have 2 graces left: each holds a deadline 12 hours for you when your move is missing."
    assert f'<p id="graces">{said}</p>' in table.page("bo")
    # Ada and Cy send their multipliers; at 13:00 Bo has not: a grace of his holds the Pregame.
    for who in ("ada", "cy"):
        fields = {f"f.multipliers.{i}": v for i, v in enumerate(("2", "1", "1", "0", "-1", "-1"))}
        seen = play.send_move(
            table.ports,
            table.match_id,
            table.sessions[who].cookie,
            table.form(who, kind="multipliers", phase="Pregame") | fields,
        )
        assert seen.refusal is None
    table.fakes.clock.advance(3600)
    assert grace.held(table.ports, table.fakes.store.get(table.match_id), table.fakes.clock.now()) is not None
    bo = table.page("bo")
    assert '<p id="grace-held">The deadline is held for a grace: Bo Baggins.</p>' in bo
    assert '<p id="graces">You have 1 grace left: each holds a deadline' in bo
    assert "Wednesday 2 December, 01:00 UTC</time>" in bo  # 13:00 plus 12 hours
    assert f'<p id="graces">{said}</p>' in table.page("ada")  # hers are untouched


def test_a_page_read_by_a_get_reloads_itself_a_refused_forms_answer_does_not() -> None:
    table = Talk.open()
    assert '<main data-refresh="60">' in table.page("ada")
    from game_core.service.page import render

    seen, _ = table.absence("ada", table.form("ada", **{"f.from": "yesterday"}))
    assert seen.refusal is not None and "<main>" in render.page(seen)
