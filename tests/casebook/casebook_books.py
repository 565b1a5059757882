"""Every game's case book, in the registry's order."""

from __future__ import annotations

from casebook_abstrac import BOOK as ABSTRAC
from casebook_clubs import BOOK as CLUBS
from casebook_crates import BOOK as CRATES
from casebook_domino import BOOK as DOMINO
from casebook_palindrome import BOOK as PALINDROME

BOOKS = (CRATES, PALINDROME, ABSTRAC, DOMINO, CLUBS)
