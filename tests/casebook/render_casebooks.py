"""Write docs/casebook/<game>.md from each game's table of cases (run it after changing a table:
test_casebooks.py fails while a book differs from what its table renders)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from casebook_books import BOOKS  # noqa: E402
from casebook_support import (  # noqa: E402
    FOLDER,
    INDEX,
    render,
    render_index,
)


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for book in BOOKS:
        path = FOLDER / f"{book.game_id}.md"
        path.write_text(render(book), encoding="utf-8")
        print(f"wrote {path.relative_to(FOLDER.parents[1])}: {len(book.numbered())} cases")
    (FOLDER / INDEX).write_text(render_index(BOOKS), encoding="utf-8")


if __name__ == "__main__":
    main()
