"""Every conditional rule of the match store, each checked on DynamoDB (moto) and on the service
tests' MemoryStore (`bench` runs each test on both): what lands, what is refused with which
error, and that a refusal writes nothing. Expected values follow from the port's docstrings
(game_core/service/ports.py) and the manual's table (docs/developers/store.md); the garnet sums are worked in comments.

Matches are created through the service (`create_match`); the later moves are made on the store
itself, with hand-made successors of the match (a version one higher), since the store judges
versions, clocks and garnets, never the game.

Every condition of game_core/aws/store, and the test that fails when it alone is removed (each
was removed by hand, one at a time; modules: C this one, E test_store_early_close.py, S
test_store_conditions.py, L test_store_log.py, A test_store_adapter.py):
- matches.add_new, the header only if the id is new: C test_a_match_id_is_created_once
- matches.replace_header, the version read: C test_a_host_act_on_a_match_that_moved_is_a_conflict_and_writes_nothing
- replace_header's `also` (an action's phase still open): C test_an_action_on_a_match_that_moved_or_closed_is_a_conflict
- phase_open, its phase number: C test_a_submission_to_a_phase_no_longer_taking_it_is_late... (the phase resolved)
- phase_open, accepting: C the same test (a resolution closed the door)
- phase_open, status running: C the same test (the match was cancelled)
- phase_open, paused or before the deadline: C the same test (the deadline passed)
- phase_open, its `paused` alternative: C test_a_paused_phase_takes_a_submission_after_its_deadline
- matches.complete, `done` absent (nobody done yet): E test_a_completion_joins_done_only_on_done_as_read
- complete, `done` of the size read (someone done):
  E test_of_two_last_submitters_racing_the_second_is_told_to_read_again_and_the_phase_closes_once
- complete (closing), the version read: E test_a_closing_submission_on_a_match_that_moved_meanwhile_writes_nothing
- complete (closing), no token / the token read: E test_a_closing_submission_whose_wait_token_changed... (None / t-0)
- matches.add_record, once: S test_a_phase_record_is_stored_once_even_by_a_resolution_on_the_version_the_first_left
- matches.add_action, once: S test_an_action_record_is_stored_once_under_the_version_it_made
- matches.stop_accepting, the version read: C test_a_resolution_closes_the_door_only_on_the_version_it_read
- matches.set_task_token, phase number, clock version, running (each):
  E test_a_wait_token_is_kept_only_for_the_clock_it_waited_on
- submissions.replace_sheet, none yet: C test_a_first_submission_when_one_landed_meanwhile_is_a_conflict
- replace_sheet, the revision read:
  C test_a_submission_replacing_a_sheet_that_moved_meanwhile_is_a_conflict_and_writes_nothing
- submissions.require_unchanged, none read: C test_a_cancel_releases_the_holds_it_read_and_only_those
- require_unchanged, a sheet of another phase counts as none: S test_a_cancel_counts_a_sheet_of_an_earlier_phase_as_none
- require_unchanged, the revision read: S test_a_cancel_that_read_a_sheet_replaced_since_is_a_conflict
- submissions.keep_reply, once: C test_a_redelivery_is_already_delivered_and_changes_nothing
- wallet.hold, free garnets: C test_a_hold_never_takes_free_garnets_below_zero
- wallet.move, free garnets: C test_an_action_takes_only_free_garnets_and_writes_nothing_when_short
- wallet.settle, the balance covers the spending: C test_a_resolution_never_spends_more_than_a_balance_holds
- settle, or no balance yet: S test_a_resolution_awards_a_player_who_has_no_garnets_yet
- wallet.ledger, once: S test_a_ledger_line_is_written_once
- profiles.register, new / the contact read (each): C test_a_contact_is_registered_only_on_the_profile_as_read
- marks.remember_told, the match exists: A test_told_keys_for_a_match_that_does_not_exist_write_nothing
- marks.record_bounce, once: C test_a_bounce_is_recorded_once_per_player_and_message_and_read_back_earliest_first
- log.append, the counter absent (nothing numbered yet):
  L test_entries_stored_before_the_numbers_are_read_first_by_time_then_the_numbered_ones
- log.append, `last` as read: L test_writers_that_read_the_log_at_once_each_take_numbers_of_their_own
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from store_bench import (
    IN_TIME,
    STORES,
    T0,
    TOO_LATE,
    Bench,
    cancel,
    each_store,
    garnets,
    moto_client,
    moved,
    resolved,
    revision,
    submit,
)

from game_core.errors import Conflict, Illegal, Late, NotFound
from game_core.match.engine import Accepted
from game_core.match.model import ActionRecord, Match
from game_core.service.matches.sheets import AlreadyDelivered
from game_core.service.ports import Bounce, Completion, Contact, Event, MatchStore

dynamodb = pytest.fixture(scope="module")(moto_client)
bench = pytest.fixture(params=STORES)(each_store)


# -- a submission: only while its phase takes it ----------------------------------------------


def test_a_submission_in_time_lands_and_holds_its_garnets(bench: Bench) -> None:
    match = bench.crates(garnets=10)
    submit(bench.store, match, "ada", cost=3)
    # 10 owned, 3 held by the submission: 7 free
    assert garnets(bench.store, match, "ada") == (10, 7)
    assert bench.store.submissions(match.match_id, 1) == {"ada": {"multipliers": {"cost": 3}}}
    assert revision(bench.store, match, "ada") == 1


def test_each_kind_keeps_its_receipts_seal_and_a_resend_replaces_only_its_own(bench: Bench) -> None:
    match = bench.crates()
    later = IN_TIME + timedelta(seconds=30)
    for kind, salt, at in (("multipliers", "aa", IN_TIME), ("round", "bb", IN_TIME), ("multipliers", "cc", later)):
        seen = bench.store.submission_view(match.match_id, "ada", None).sheet
        event = Event("submission_accepted", at, {"player": "ada"})
        bench.store.put_submission(match, "ada", Accepted(kind, {}, 0, salt * 32), event, seen)
    [sheet] = bench.store.sheets(match.match_id, 1).values()
    # T0 is 12:00 on 1 December 2026: the round's seal from 12:01, the resent multipliers' from 12:01:30
    assert sheet.seals == {
        "multipliers": {"salt": "cc" * 32, "at": "2026-12-01T12:01:30Z"},
        "round": {"salt": "bb" * 32, "at": "2026-12-01T12:01:00Z"},
    }


def _stop_accepting(bench: Bench, match: Match) -> None:
    assert bench.store.stop_accepting(match) is True


def _resolve(bench: Bench, match: Match) -> None:
    after, record = resolved(match)
    bench.store.commit_resolution(match, after, record, {}, {}, [])


CLOSED = {
    "a resolution closed the door (accepting)": (_stop_accepting, IN_TIME),
    "the deadline passed": (lambda bench, match: None, TOO_LATE),
    "the match was cancelled": (cancel, IN_TIME),
    "the phase resolved (another number is open)": (_resolve, IN_TIME),
}


@pytest.mark.parametrize("closing", list(CLOSED))
def test_a_submission_to_a_phase_no_longer_taking_it_is_late_and_writes_nothing(bench: Bench, closing: str) -> None:
    match = bench.crates(garnets=10)
    close, at = CLOSED[closing]
    close(bench, match)
    with pytest.raises(Late):
        submit(bench.store, match, "ada", cost=3, at=at, delivery="d-1")
    assert bench.store.submissions(match.match_id, 1) == {}
    assert garnets(bench.store, match, "ada") == (10, 10)
    assert bench.store.delivered(match.match_id, "ada", "d-1") is None


def test_a_paused_phase_takes_a_submission_after_its_deadline(bench: Bench) -> None:
    # The pause stops the clock: the deadline stored is no longer the one that counts
    match = bench.crates()
    paused = moved(match, paused_at=T0 + timedelta(minutes=30))
    bench.store.save(match, paused, Event("paused", T0))
    submit(bench.store, paused, "ada", at=TOO_LATE)
    assert list(bench.store.submissions(match.match_id, 1)) == ["ada"]


# -- a submission replaces the sheet it read ---------------------------------------------------


def test_a_submission_replacing_a_sheet_that_moved_meanwhile_is_a_conflict_and_writes_nothing(bench: Bench) -> None:
    match = bench.crates(garnets=10)
    submit(bench.store, match, "ada", cost=1)
    first = bench.store.submission_view(match.match_id, "ada", None).sheet
    submit(bench.store, match, "ada", cost=2)  # revision 2, 2 held: 8 free
    with pytest.raises(Conflict):
        submit(bench.store, match, "ada", cost=5, seen=first)  # read at revision 1
    assert revision(bench.store, match, "ada") == 2
    assert garnets(bench.store, match, "ada") == (10, 8)


def test_a_first_submission_when_one_landed_meanwhile_is_a_conflict(bench: Bench) -> None:
    match = bench.crates()
    submit(bench.store, match, "ada", cost=1)
    with pytest.raises(Conflict):
        submit(bench.store, match, "ada", cost=2, seen=None)  # read before the first one landed
    assert revision(bench.store, match, "ada") == 1


# -- holds: never below zero --------------------------------------------------------------------


def test_a_hold_never_takes_free_garnets_below_zero(bench: Bench) -> None:
    match = bench.crates(garnets=5)
    submit(bench.store, match, "ada", cost=4, kind="multipliers")  # 1 free
    with pytest.raises(Illegal) as refused:
        submit(bench.store, match, "ada", cost=2, kind="round")  # 2 more than the 1 free
    assert [reason.code for reason in refused.value.reasons] == ["garnets_short"]
    assert garnets(bench.store, match, "ada") == (5, 1)
    assert bench.store.submissions(match.match_id, 1) == {"ada": {"multipliers": {"cost": 4}}}


def test_a_replacement_holds_only_the_difference_and_a_cheaper_one_frees_the_rest(bench: Bench) -> None:
    match = bench.crates(garnets=5)
    submit(bench.store, match, "ada", cost=4)  # 1 free
    submit(bench.store, match, "ada", cost=5)  # replaces the 4: holds 1 more, 0 free
    assert garnets(bench.store, match, "ada") == (5, 0)
    submit(bench.store, match, "ada", cost=1)  # releases 4
    assert garnets(bench.store, match, "ada") == (5, 4)


# -- a delivery is stored once -------------------------------------------------------------------


def test_a_redelivery_is_already_delivered_and_changes_nothing(bench: Bench) -> None:
    match = bench.crates(garnets=10)
    submit(bench.store, match, "ada", cost=3, delivery="d-1")
    with pytest.raises(AlreadyDelivered):
        submit(bench.store, match, "ada", cost=5, delivery="d-1")
    assert bench.store.delivered(match.match_id, "ada", "d-1") == {"accepted": True, "cost": 3}
    assert bench.store.submission_view(match.match_id, "ada", "d-1").delivered == {"accepted": True, "cost": 3}
    assert revision(bench.store, match, "ada") == 1
    assert garnets(bench.store, match, "ada") == (10, 7)
    # Another player's delivery of the same key is theirs
    submit(bench.store, match, "bo", delivery="d-1")


def test_an_act_on_the_match_redelivered_is_already_delivered_and_changes_nothing(bench: Bench) -> None:
    # A ready vote sent by webhook twice under one Idempotency-Key: the second, built on the match
    # the first left (so only the key's condition can fail), stores nothing.
    match = bench.crates()
    voted = moved(match, ready=("ada",))
    bench.store.save(match, voted, Event("ready_vote", IN_TIME), delivery=("ada", "d-1", {"ready": True}))
    with pytest.raises(AlreadyDelivered):
        bench.store.save(voted, moved(voted), Event("ready_vote", IN_TIME), delivery=("ada", "d-1", {"ready": True}))
    assert bench.store.get(match.match_id).version == voted.version
    assert bench.store.delivered(match.match_id, "ada", "d-1") == {"ready": True}
    assert bench.store.delivered(match.match_id, "bo", "d-1") is None


# -- when several conditions fail, which one the caller hears ------------------------------------

PRECEDENCE = {
    # what failed -> the error the caller hears
    "redelivered, and the phase closed": (AlreadyDelivered, dict(delivery="d-1", at=TOO_LATE)),
    "the phase closed, and the sheet moved": (Late, dict(seen=None, at=TOO_LATE)),
    "the sheet moved, and garnets short": (Conflict, dict(seen=None, cost=99)),
}


@pytest.mark.parametrize("failures", list(PRECEDENCE))
def test_of_several_failed_conditions_the_caller_hears_the_first_that_matters(bench: Bench, failures: str) -> None:
    match = bench.crates(garnets=10)
    submit(bench.store, match, "ada", cost=1, delivery="d-1")
    error, arguments = PRECEDENCE[failures]
    with pytest.raises(error):
        submit(bench.store, match, "ada", **arguments)


# -- a host act against a resolution ---------------------------------------------------------------


def test_a_resolution_closes_the_door_only_on_the_version_it_read(bench: Bench) -> None:
    match = bench.crates()
    extended = moved(match, extension_seconds=600)
    bench.store.save(match, extended, Event("extended", T0))  # the host's act, stored first
    assert bench.store.stop_accepting(match) is False
    submit(bench.store, extended, "ada")  # the phase still takes moves
    assert bench.store.stop_accepting(extended) is True
    with pytest.raises(Late):
        submit(bench.store, extended, "bo")
    # A host act stored after the door closed writes `accepting` from the match it stores: open
    bench.store.save(extended, moved(extended, extension_seconds=1200), Event("extended", T0))
    submit(bench.store, extended, "bo")


def test_a_host_act_on_a_match_that_moved_is_a_conflict_and_writes_nothing(bench: Bench) -> None:
    match = bench.crates()
    after, record = resolved(match)
    bench.store.commit_resolution(match, after, record, {}, {}, [Event("resolved", T0)])
    with pytest.raises(Conflict):
        bench.store.save(match, moved(match, extension_seconds=600), Event("extended", T0))
    assert bench.store.get(match.match_id) == after.model_copy(update={"announced": 0})


def test_a_resolution_is_stored_once(bench: Bench) -> None:
    match = bench.crates(garnets=10)
    submit(bench.store, match, "ada", cost=3)  # 7 free
    after, record = resolved(match)
    bench.store.commit_resolution(match, after, record, {"ada": 3}, {"bo": 2}, [])
    with pytest.raises(Conflict):
        bench.store.commit_resolution(match, after, record, {"ada": 3}, {"bo": 2}, [])
    assert [r.number for r in bench.store.phase_records(match.match_id)] == [1]
    # ada: 10 - 3 spent = 7, nothing held any more; bo: 10 + 2 awarded, all free
    assert garnets(bench.store, match, "ada") == (7, 7)
    assert garnets(bench.store, match, "bo") == (12, 12)


def test_a_resolution_never_spends_more_than_a_balance_holds(bench: Bench) -> None:
    match = bench.crates(garnets=2)
    after, record = resolved(match)
    with pytest.raises(Conflict):
        bench.store.commit_resolution(match, after, record, {"ada": 3}, {}, [])
    assert bench.store.phase_records(match.match_id) == []
    assert garnets(bench.store, match, "ada") == (2, 2)


def test_a_cancel_releases_the_holds_it_read_and_only_those(bench: Bench) -> None:
    match = bench.crates(garnets=10)
    submit(bench.store, match, "ada", cost=3)
    read = bench.store.sheets(match.match_id, 1)
    submit(bench.store, match, "bo", cost=4)  # lands after the cancel read the sheets
    cancelled = moved(match).model_copy(update={"status": "cancelled"})
    with pytest.raises(Conflict):
        bench.store.save(match, cancelled, Event("cancelled", T0), releases=read)
    assert bench.store.get(match.match_id).status == "running"
    assert garnets(bench.store, match, "ada") == (10, 7)
    bench.store.save(match, cancelled, Event("cancelled", T0), releases=bench.store.sheets(match.match_id, 1))
    # Both holds free again: ada 7 + 3, bo 6 + 4
    assert garnets(bench.store, match, "ada") == (10, 10)
    assert garnets(bench.store, match, "bo") == (10, 10)


# -- immediate actions and purses ------------------------------------------------------------------


def act(
    store: MatchStore, match: Match, moves: dict[str, int], *, at: datetime = IN_TIME, delivery: str | None = None
) -> Match:
    """ada's transfer moving `moves` garnets; returns the match it leaves."""
    after = moved(match)
    record = ActionRecord(actor="ada", kind="transfer", action={"moves": moves}, at=at)
    reply = (delivery, {"accepted": True}) if delivery is not None else None
    store.put_action(match, after, record, moves, Event("action_taken", at, {"actor": "ada"}), reply)
    return after


def test_a_guest_purse_starts_empty_and_an_action_moves_garnets_into_it(bench: Bench) -> None:
    match = bench.clubs(garnets=10)
    assert bench.store.purses(match.match_id) == {"ann": 0, "ben": 0, "cat": 0}
    after = act(bench.store, match, {"ada": -4, "ann": 4})
    assert bench.store.purses(match.match_id) == {"ann": 4, "ben": 0, "cat": 0}
    assert garnets(bench.store, match, "ada") == (6, 6)
    assert garnets(bench.store, match, "ann") == (4, 4)
    assert [a.kind for a in bench.store.actions(match.match_id, match.phase.number)] == ["transfer"]
    assert bench.store.get(match.match_id).version == after.version


def test_an_action_takes_only_free_garnets_and_writes_nothing_when_short(bench: Bench) -> None:
    match = bench.clubs(garnets=10)
    submit(bench.store, match, "ada", cost=8, kind="draft")  # 2 free
    with pytest.raises(Illegal) as refused:
        act(bench.store, match, {"ada": -3, "ann": 3})
    assert [reason.code for reason in refused.value.reasons] == ["garnets_short"]
    assert bench.store.purses(match.match_id)["ann"] == 0
    assert garnets(bench.store, match, "ada") == (10, 2)
    assert bench.store.get(match.match_id).version == match.version


@pytest.mark.parametrize("closing", ["stop_accepting", "host act"])
def test_an_action_on_a_match_that_moved_or_closed_is_a_conflict(bench: Bench, closing: str) -> None:
    match = bench.clubs(garnets=10)
    if closing == "stop_accepting":
        assert bench.store.stop_accepting(match) is True
    else:
        bench.store.save(match, moved(match, extension_seconds=600), Event("extended", T0))
    with pytest.raises(Conflict):
        act(bench.store, match, {"ada": -3, "ann": 3})
    assert bench.store.purses(match.match_id)["ann"] == 0
    assert bench.store.actions(match.match_id, 1) == []


def test_an_action_after_the_deadline_is_a_conflict(bench: Bench) -> None:
    match = bench.clubs(garnets=10)
    assert match.phase is not None
    with pytest.raises(Conflict):
        act(bench.store, match, {"ada": -3, "ann": 3}, at=match.phase.deadline + timedelta(seconds=1))
    assert bench.store.purses(match.match_id)["ann"] == 0


def test_an_action_redelivered_is_already_delivered_and_moves_nothing_twice(bench: Bench) -> None:
    match = bench.clubs(garnets=10)
    after = act(bench.store, match, {"ada": -3, "ann": 3}, delivery="d-1")
    with pytest.raises(AlreadyDelivered):
        act(bench.store, after, {"ada": -3, "ann": 3}, delivery="d-1")
    assert bench.store.purses(match.match_id)["ann"] == 3
    assert bench.store.delivered(match.match_id, "ada", "d-1") == {"accepted": True}


def test_a_cancel_empties_each_purse_into_its_player(bench: Bench) -> None:
    match = bench.clubs(garnets=10)
    after = act(bench.store, match, {"ada": -4, "ann": 4})
    cancelled = moved(after).model_copy(update={"status": "cancelled"})
    bench.store.save(after, cancelled, Event("cancelled", T0), returned={"ann": 4})
    # ann's 4 back to ada: 6 + 4
    assert bench.store.purses(match.match_id)["ann"] == 0
    assert garnets(bench.store, match, "ada") == (10, 10)


# -- a new match: its id, its players' balances and contacts -----------------------------------------


def test_a_known_player_keeps_their_balance_and_a_new_one_starts_with_theirs(bench: Bench) -> None:
    first = bench.crates(garnets=10)
    submit(bench.store, first, "ada", cost=3)
    after, record = resolved(first)
    bench.store.commit_resolution(first, after, record, {"ada": 3}, {}, [])  # ada: 7
    players = [{"id": "ada", "garnets": 50, "email": "ada@example.com"}, {"id": "cy", "garnets": 50}]
    bench.create({"game": "crates", "players": players})
    assert bench.store.balances(("ada", "cy", "nobody")) == {"ada": 7, "cy": 50}


def test_a_contact_is_registered_only_on_the_profile_as_read(bench: Bench) -> None:
    match = bench.crates()
    assert bench.store.contacts(("ada", "bo", "cy")) == {"ada": "ada@example.com", "bo": "bo@example.com"}
    successor = match.model_copy(update={"match_id": "m-second"})
    event = Event("created", T0)
    for stale in (Contact(before=None, after="ada@elsewhere.org"), Contact(before="old@x.org", after="a@b.org")):
        with pytest.raises(Conflict):
            bench.store.create(successor, {}, event, {"ada": stale})
        with pytest.raises(NotFound):
            bench.store.get("m-second")
    assert bench.store.contacts(("ada",)) == {"ada": "ada@example.com"}
    bench.store.create(successor, {}, event, {"ada": Contact(before="ada@example.com", after="ada@elsewhere.org")})
    assert bench.store.contacts(("ada",)) == {"ada": "ada@elsewhere.org"}


def test_a_match_id_is_created_once(bench: Bench) -> None:
    match = bench.crates()
    with pytest.raises(Conflict):
        bench.store.create(match.model_copy(update={"game": "abstrac"}), {}, Event("created", T0), {})
    assert bench.store.get(match.match_id).game == "crates"


# -- mail marks --------------------------------------------------------------------------------------


def test_a_mail_marked_answered_stays_answered_and_marking_it_again_changes_nothing(bench: Bench) -> None:
    match = bench.crates()
    assert bench.store.answered(match.match_id, "<m1@x>") is False
    bench.store.mark_answered(match.match_id, "<m1@x>", T0)
    bench.store.mark_answered(match.match_id, "<m1@x>", T0)
    assert bench.store.answered(match.match_id, "<m1@x>") is True
    assert bench.store.answered(match.match_id, "<m2@x>") is False
    assert bench.store.answered("m-other", "<m1@x>") is False


# -- bounces ----------------------------------------------------------------------------------------


def test_a_bounce_is_recorded_once_per_player_and_message_and_read_back_earliest_first(bench: Bench) -> None:
    match = bench.crates()
    later = Bounce("bo", "b2", T0 + timedelta(minutes=5), "5.2.2", "smtp; 552 5.2.2 mailbox full")
    first = Bounce("ada", "b1", T0, "5.1.1", "smtp; 550 5.1.1 user unknown")
    bench.store.record_bounce(match.match_id, later)
    bench.store.record_bounce(match.match_id, first)
    # The same bounce delivered again, an hour on: the first record stands, nothing is added
    bench.store.record_bounce(match.match_id, Bounce("ada", "b1", T0 + timedelta(hours=1), "5.1.1", "again"))
    # Another participant in the same bounce is a record of their own
    also = Bounce("bo", "b1", T0 + timedelta(minutes=1), "", "")
    bench.store.record_bounce(match.match_id, also)
    assert bench.store.bounces(match.match_id) == [first, also, later]
    assert bench.store.bounces("m-other") == []


# -- told marks --------------------------------------------------------------------------------------


def test_told_keys_add_up_once_each_outlive_a_host_act_and_go_with_the_phase(bench: Bench) -> None:
    match = bench.crates()
    bench.store.remember_told(match.match_id, frozenset({"k1", "k2"}))
    bench.store.remember_told(match.match_id, frozenset({"k2", "k3"}))  # k2 again (a write made again)
    assert bench.store.get(match.match_id).told == {"k1", "k2", "k3"}
    extended = moved(match, extension_seconds=600)
    bench.store.save(match, extended, Event("extended", T0))  # the same phase: a retry may still need them
    assert bench.store.get(match.match_id).told == {"k1", "k2", "k3"}
    after, record = resolved(extended)
    bench.store.commit_resolution(extended, after, record, {}, {}, [])  # the next phase: every occasion told
    assert bench.store.get(match.match_id).told == frozenset()


# -- the messages page's one read ---------------------------------------------------------------------


def test_the_header_and_the_log_are_read_together_and_nothing_else_of_the_match(bench: Bench) -> None:
    match = bench.crates()
    # Beside the header and the log, the other items a match keeps: its state (STATE), ada's sheet
    # and a delivery's reply (SUB#, DELIVERY#), a bounce (BOUNCED#), an answered mail (ANSWERED#)
    submit(bench.store, match, "ada", delivery="d-1", completion=Completion(frozenset(), None))
    bench.store.record_bounce(match.match_id, Bounce("bo", "b1", T0, "5.1.1", "user unknown"))
    bench.store.mark_answered(match.match_id, "<m1@x>", T0)
    bench.store.remember_told(match.match_id, frozenset({"k1"}))
    bench.store.mark_announced(match.match_id, 1)
    extended = moved(match, extension_seconds=600)
    # A minute after the submission: the log orders by time (a tie, by a random nonce)
    bench.store.save(match, extended, Event("extended", IN_TIME + timedelta(minutes=1), {"seconds": 600}))
    header, events = bench.store.header_and_events(match.match_id)
    stored = bench.store.get(match.match_id)
    assert stored.state != {}  # Pushing Crates' board and crates: what the header leaves out
    assert header == stored.model_copy(update={"state": {}, "result": None})
    # The extension's version (one on the match's), and what is kept beside the match on its
    # header: ada done, k1 told, phase 1 announced
    assert (header.version, header.done, header.told, header.announced) == (match.version + 1, {"ada"}, {"k1"}, 1)
    # The match's creation, ada's submission, the extension: oldest first, as `events` reads them
    assert events == bench.store.events(match.match_id)
    assert [(event.type, event.data) for event in events[1:]] == [
        ("submission_accepted", {"player": "ada"}),
        ("extended", {"seconds": 600}),
    ]
    assert events[0].type == "created"
    with pytest.raises(NotFound):
        bench.store.header_and_events("m-other")


# -- the hand-over count beside the match (service/matches/handover.py) --------------------------------


def test_the_hand_over_count_is_its_attempts_alone_and_a_save_keeps_it(bench: Bench) -> None:
    match = bench.crates()
    assert bench.store.handovers(match.match_id, 0) == 0  # never handed over

    bench.store.hand_over(match.match_id, 0, 2)
    bench.store.hand_over(match.match_id, 0, 2)  # a retried write: the same
    # A host act stored meanwhile writes the header from the match: the count stays
    after = match.model_copy(update={"version": match.version + 1, "stalled": {"error": "x", "cause": "y"}})
    bench.store.save(match, after, Event("stalled", match.created_at, {}))

    assert bench.store.handovers(match.match_id, 0) == 2
    assert bench.store.handovers(match.match_id, 1) == 0  # recover's new attempt counts afresh
    bench.store.hand_over(match.match_id, 1, 1)
    assert (bench.store.handovers(match.match_id, 0), bench.store.handovers(match.match_id, 1)) == (0, 1)
