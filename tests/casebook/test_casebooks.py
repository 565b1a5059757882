"""Each game's case book: every case played through the game's rules gives the result its table
worked out by hand, every game has at least 25, and docs/casebook/<game>.md is what the table
renders (issue 23 item 3)."""

from __future__ import annotations

import pytest
from casebook_books import BOOKS
from casebook_support import FOLDER, INDEX, REGENERATE, Book, Case, render, render_index

from game_core.games import registry

CASES = [pytest.param(book, case, id=number) for book in BOOKS for number, case in book.numbered()]


@pytest.mark.parametrize(("book", "case"), CASES)
def test_case(book: Book, case: Case):
    assert book.observed(case) == dict(case.expect)


def test_every_game_has_a_book_of_at_least_25_cases():
    assert [book.game_id for book in BOOKS] == list(registry.AVAILABLE)
    assert {book.game_id: len(book.numbered()) >= 25 for book in BOOKS} == dict.fromkeys(registry.AVAILABLE, True)


@pytest.mark.parametrize("book", BOOKS, ids=[book.game_id for book in BOOKS])
def test_the_book_is_what_its_table_renders(book: Book):
    path = FOLDER / f"{book.game_id}.md"
    written = path.read_text(encoding="utf-8") if path.exists() else ""
    assert written == render(book), f"{path} is not what its table renders: run {REGENERATE}"


def test_the_index_is_what_the_tables_render():
    path = FOLDER / INDEX
    written = path.read_text(encoding="utf-8") if path.exists() else ""
    assert written == render_index(BOOKS), f"{path} is not what the tables render: run {REGENERATE}"
