"""Domino Auction's placing on the drawing (issue 30 item 2), on the fakes with Ann and Ben: what
the page's script needs is written on the drawing (the own board's grid, each tile to place with
its cells), the form stays whole for a page without script, and the check route answers a
placement as the submit path would, every reason in words beside the row's input it is about.

The host sets auction 1's tiles: tile 1 an L4 (drawn (0,0) (1,0) (2,0) (2,1)), tile 2 an I3
((0,0) (0,1) (0,2)), tile 3 an O4. Ann alone bids on tiles 1 and 2, so she wins both (RULINGS: a
tile goes to the highest amount bid on it by exactly one player) and places them in phase 2.
Expected reasons are worked from RULINGS.md's placing rules: inside the grid, on no covered cell of
her own, and after the first, touching her cells (one orthogonally connected group)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from test_page_quality import check_markup

from game_core.match.model import MatchRequest
from game_core.service.matches.lifecycle import create_match
from game_core.service.page import check, html, play, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))
from crates_driver import Table  # noqa: E402
from fakes import Fakes  # noqa: E402

TILES = ["L4", "I3"] + ["O4"] * 18


def placing() -> tuple[Table, dict[str, Any]]:
    """Auction 1 resolved (Ann won tiles 1 and 2): phase 2, Auction 2 and placing 1, is open."""
    fakes = Fakes()
    request = {
        "game": "domino",
        "players": [{"id": "ann", "name": "Ann"}, {"id": "ben", "name": "Ben"}],
        "settings": {"tiles": {"1": TILES}},
        "phase_seconds": 3600,
        "seed": 7,
    }
    created = create_match(fakes.ports, MatchRequest.model_validate(request))
    table = Table(fakes, created["match_id"], created)
    assert table.submit("ann", "Auction 1", "bid", {"bids": [{"tile": 1, "chips": 4}, {"tile": 2, "chips": 2}]})[
        "accepted"
    ]
    table.resolve_at_deadline()
    return table, created["secrets"]


def page_of(table: Table, secret: str) -> str:
    player = play.sign_in(table.ports, table.match_id, secret)
    return render.page(play.show(table.ports, table.match_id, player.cookie))


def group(page: str, key: str) -> str:
    """The opening tag of the drawing's group marked `key`."""
    found = re.search(rf'<g data-mark="{key}"[^>]*>', page)
    assert found is not None, key
    return found[0]


def test_the_drawing_carries_the_own_grid_and_each_tile_to_place_with_its_cells() -> None:
    table, secrets = placing()
    page = page_of(table, secrets["ann"])
    own = group(page, "board-ann")
    # The grid: 24 units in from the left (row numbers), 48 down (title and letters), 24 a cell, 12 a side.
    assert 'data-own="true"' in own and 'data-grid="24 48 24 12"' in own
    assert 'data-squares-left="3"' in own  # three squares a match, none bought yet
    assert "data-own" not in group(page, "board-ben") and "data-grid" not in group(page, "board-ben")
    assert 'data-place-cells="0.0 1.0 2.0 2.1"' in group(page, "tile-1")  # the L4 as drawn
    assert 'data-place-cells="0.0 0.1 0.2"' in group(page, "tile-2")  # the I3
    assert "data-place-cells" not in group(page, "tile-3")  # nobody's to place
    assert "data-place-cells" not in group(page, "tile-21")  # on auction 2's tiles: bid on, not placed
    # Ben won nothing: on his page no tile is his to place, his own board is his.
    bens = page_of(table, secrets["ben"])
    assert "data-place-cells" not in bens and 'data-own="true"' in group(bens, "board-ben")


def test_the_form_stays_whole_for_a_page_without_script_and_the_games_script_is_linked() -> None:
    table, secrets = placing()
    page = page_of(table, secrets["ann"])
    check_markup(page)
    form = page[page.index('<form id="move-place"') : page.index("</form>", page.index('<form id="move-place"'))]
    for row in range(12):  # the form's rows: tile and cells, each labelled
        for part in ("tile", "cells"):
            assert f'<label for="move-place-placements-{row}-{part}">' in form
            assert f'name="f.placements.{row}.{part}"' in form
    assert '<button type="submit">' in form
    scripts = re.findall(r'<script src="/static/([a-z-]+\.js)\?v=[0-9a-f]{12}" defer></script>', page)
    assert scripts == ["page.js", "domino.js", "domino-bid.js"]  # the game's after page.js, whose GeniusPage they use


def test_the_open_auctions_tiles_carry_what_bidding_on_them_needs() -> None:
    table, secrets = placing()
    page = page_of(table, secrets["ann"])
    # Ann bid 4 and 2 chips in auction 1: every chip bid is spent, so 300 - 6 = 294 are left.
    [opened] = re.findall(r'<g transform="[^"]*" font-size="12" data-bids="open"[^>]*>', page)
    assert 'data-chips-left="294"' in opened and 'data-tile-size="104 120"' in opened
    start = page.index(opened)
    inside = page[start : page.index("</svg>", start)]  # auction 2's tiles, the first drawing: the open one
    assert re.findall(r'data-mark="tile-(\d+)"', inside) == [str(n) for n in range(21, 41)]
    assert 'data-chips-left="300"' in page_of(table, secrets["ben"])  # Ben bid nothing
    assert page.count('data-bids="open"') == 1  # auction 1 (resolved) and 3 (to come) are not open


def test_a_page_of_a_game_without_its_own_script_links_page_js_alone() -> None:
    page = html.document("t", "<main></main>", "crates")
    assert "/static/page.js" in page and "domino.js" not in page and "crates.js" not in page


def placements(*rows: tuple[int, str, str]) -> dict[str, str]:
    """The place form as the script posts it: (row, tile, cells) each."""
    fields = {}
    for row, tile, cells in rows:
        fields |= {f"f.placements.{row}.tile": tile, f"f.placements.{row}.cells": cells}
    return fields


def verdict(table: Table, secret: str, fields: dict[str, str]) -> list[tuple[str, str, str]]:
    player = play.sign_in(table.ports, table.match_id, secret)
    hidden = {"csrf": player.csrf, "kind": "place", "phase": "Auction 2 and placing 1", "number": "2"}
    said = check.check_move(table.ports, table.match_id, player.cookie, hidden | fields)
    assert table.fakes.store.submissions(table.match_id, 2) == {}  # nothing stored
    found = [(one.code, one.text, one.at) for one in said.findings]
    assert not any("placements." in text for _, text, _ in found)  # words, never a field's path
    return found


def test_both_tiles_placed_touching_are_legal() -> None:
    table, secrets = placing()
    # L4 from C3: C3 C4 C5 and the foot D5; the I3 upright on E3 E4 E5, E5 beside D5.
    assert verdict(table, secrets["ann"], placements((0, "1", "C3 C4 C5 D5"), (1, "2", "E3 E4 E5"))) == []


def test_a_second_tile_apart_from_the_first_is_said_beside_its_cells() -> None:
    table, secrets = placing()
    found = verdict(table, secrets["ann"], placements((0, "1", "C3 C4 C5 D5"), (1, "2", "H8 I8 J8")))
    # H8 I8 J8 has no side on C3 C4 C5 D5: after the first, all her cells must be one group.
    text = "placement 2 (tile 2): touches none of your cells (after the first, all your cells are one group)"
    assert found == [("not_connected", text, "move-place-placements-1-cells")]


def test_a_row_left_blank_keeps_the_forms_numbering() -> None:
    table, secrets = placing()
    found = verdict(table, secrets["ann"], placements((0, "1", "C3 C4 C5 D5"), (2, "2", "H8 I8 J8")))
    # Row 2 (the third) sent as the list's second placement: said as placement 3, at row 2's cells.
    text = "placement 3 (tile 2): touches none of your cells (after the first, all your cells are one group)"
    assert found == [("not_connected", text, "move-place-placements-2-cells")]


def test_a_covered_cell_off_grid_cells_and_a_wrong_shape_are_each_said_at_their_row() -> None:
    table, secrets = placing()
    # The I3 across C3 D3 E3 lies on C3, which the L4 covers.
    found = verdict(table, secrets["ann"], placements((0, "1", "C3 C4 C5 D5"), (1, "2", "C3 D3 E3")))
    assert found == [("cell_covered", "placement 2 (tile 2): C3 already covered", "move-place-placements-1-cells")]
    # K1 L1 M1 is an I3, but M is past the grid's last column, L.
    found = verdict(table, secrets["ann"], placements((0, "2", "K1 L1 M1")))
    assert found == [("outside_grid", "placement 1 (tile 2): M1 off the 12x12 grid", "move-place-placements-0-cells")]
    # Four in a line are an I4, not the L4 tile 1 is.
    found = verdict(table, secrets["ann"], placements((0, "1", "A1 A2 A3 A4")))
    assert found == [
        ("wrong_shape", "placement 1 (tile 1): A1 A2 A3 A4 do not form a L4", "move-place-placements-0-cells")
    ]


def test_a_tile_not_won_is_said_beside_its_tile() -> None:
    table, secrets = placing()
    # Tile 3 went to nobody (no bid on it): Ann places 1 and 2 only.
    found = verdict(table, secrets["ann"], placements((0, "3", "A1 B1 A2 B2")))
    text = "placement 1 (tile 3): not a tile you place now (you won these in auction 1: 1, 2)"
    assert found == [("tile_not_held", text, "move-place-placements-0-tile")]
