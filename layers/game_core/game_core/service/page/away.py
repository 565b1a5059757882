"""The page's "Away" section: who is away during the open phase (everyone's, public), the
participant's own absences to come, and the forms to declare one or withdraw theirs.
"""

from __future__ import annotations

from collections.abc import Mapping

from game_core.match import absence
from game_core.match.clock import day_text
from game_core.service.page.html import attrs, esc, form_open, own_zone, refusal_reasons, submit_button
from game_core.service.page.play import (
    ABSENCE_FORM,
    WITHDRAW_FORM,
    Seen,
)


def away(seen: Seen, names: Mapping[str, str]) -> str:
    """Who is away during the open phase (everyone's, public), the participant's own absences to
    come, and the forms to declare one or withdraw theirs, while the match runs."""
    match = seen.match
    if match.status != "running" or match.phase is None:
        return ""
    zone = own_zone(seen)
    me = seen.session.participant
    parts = ['<section id="absences" aria-labelledby="absences-h">\n<h2 id="absences-h">Away</h2>']
    public = [a for a in sorted(match.absences, key=lambda a: a.start) if a.end > match.phase.opened_at]
    if public:
        parts.append('<ul id="away">')
        for one in public:
            who = names.get(one.participant, one.participant)
            parts.append(f"<li>{esc(who)} is away {_between(one, zone)}.</li>")
        parts.append("</ul>")
    rules = match.absence_rules
    if rules.days == 0:
        return "\n".join([*parts, '<p id="absence-rules">The host allows no absences in this match.</p>', "</section>"])
    parts.append(
        f'<p id="absence-rules">Going away? Declare it: a deadline that waits for your move and would fall while you '
        f"are away waits until {rules.margin_hours} hours after your return, for everyone. At most "
        f"{rules.longest_days} days at once, {rules.days} in the whole match.</p>"
    )
    own = absence.standing(match.absences, me, seen.now)
    if own:
        mine = "".join(f"<li>Away {_between(one, zone)}.</li>" for one in own)
        parts.append(f'<h3>Your absences</h3>\n<ul id="your-absences">{mine}</ul>')
        parts.append(
            form_open(seen, WITHDRAW_FORM, "absence", {"cancel": "1"})
            + refusal_reasons(seen, WITHDRAW_FORM)
            + '<button type="submit" class="quiet">Withdraw my absences (one under way ends now)</button>\n</form>'
        )
    parts.append(_absence_form(seen, zone))
    return "\n".join(parts) + "\n</section>"


def _between(away: absence.Absence, zone: str | None) -> str:
    return f"from {esc(day_text(away.start, zone))} until {esc(day_text(away.end, zone))}"


def _absence_form(seen: Seen, zone: str | None) -> str:
    refused = seen.refused_fields(ABSENCE_FORM)
    where = f"your time zone, {zone}" if zone else "UTC (you have set no time zone; ZONE by mail sets one)"
    fields = []
    for name, label in (("from", "Your first day away"), ("to", "Your last day away (empty: that one day)")):
        input_id = f"{ABSENCE_FORM}-{name}"
        attributes = attrs(
            id=input_id,
            name=f"f.{name}",
            required=name == "from",
            aria_describedby=f"{ABSENCE_FORM}-zone",
            value=refused.get(f"f.{name}"),
        )
        fields.append(
            f'<div class="field"><label for="{input_id}">{label}</label>\n<input type="date"{attributes}>\n</div>\n'
        )
    return (
        f'<h3 id="{ABSENCE_FORM}-h">Declare an absence</h3>\n'
        + form_open(seen, ABSENCE_FORM, "absence", {})
        + refusal_reasons(seen, ABSENCE_FORM)
        + "".join(fields)
        + f'<p class="hint" id="{ABSENCE_FORM}-zone">Whole days, read in {esc(where)}.</p>\n'
        + submit_button("Declare my absence")
        + "</form>"
    )
