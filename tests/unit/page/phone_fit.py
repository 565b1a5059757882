"""How a drawn board reads on a 390-px phone (issue 30 item 4), from its SVG alone.

The page's column at 390 px is 390 - 2 x 8 (main's padding under 30rem, page.css) - 2 (the
board box's border) = 372 px; the SVG is drawn that wide, so a viewBox W units wide scales by
372 / W. A text's rendered size is its font-size (its own, else its nearest ancestor's) times
that scale. Its box is estimated with the layout's own metric, 0.6 x font-size a character wide
(the boards size their columns by it) and one font-size tall above its baseline; `text-anchor`
middle or end shifts it left by a half or a whole width.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

PHONE_COLUMN_PX = 390 - 2 * 8 - 2
CHARACTER_WIDTH = 0.6


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


@dataclass(frozen=True)
class Text:
    words: str
    size: float
    left: float
    right: float
    top: float
    bottom: float

    def overlaps(self, other: Text) -> bool:
        return (
            self.left < other.right and other.left < self.right and self.top < other.bottom and other.top < self.bottom
        )


def _translate(transform: str | None) -> tuple[float, float]:
    if not transform:
        return 0.0, 0.0
    assert transform.startswith("translate(") and transform.endswith(")"), transform
    x, _, y = transform[len("translate(") : -1].replace(",", " ").partition(" ")
    return float(x), float(y or 0)


def texts(root: ET.Element) -> list[Text]:
    """Every text of the drawing placed in the viewBox's units (groups' translations applied)."""
    found: list[Text] = []

    def walk(element: ET.Element, dx: float, dy: float, size: float, anchor: str) -> None:
        tx, ty = _translate(element.get("transform"))
        dx, dy = dx + tx, dy + ty
        size = float(element.get("font-size", size))
        anchor = element.get("text-anchor", anchor)
        if _local(element.tag) == "text" and (element.text or "").strip():
            words = element.text or ""
            width = CHARACTER_WIDTH * size * len(words)
            x = dx + float(element.get("x", 0))
            left = x - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
            y = dy + float(element.get("y", 0))
            found.append(Text(words, size, left, left + width, y - size, y))
        for child in element:
            if _local(child.tag) != "title":
                walk(child, dx, dy, size, anchor)

    walk(root, 0.0, 0.0, 16.0, "start")
    return found


def view_width(root: ET.Element) -> float:
    return float((root.get("viewBox") or "").split()[2])


def smallest_px(root: ET.Element) -> tuple[float, str]:
    """The smallest text as rendered in the phone's column, in px, and what it writes."""
    scale = PHONE_COLUMN_PX / view_width(root)
    smallest = min(texts(root), key=lambda text: text.size)
    return smallest.size * scale, smallest.words


def overlapping(root: ET.Element) -> list[tuple[str, str]]:
    placed = texts(root)
    return [(a.words, b.words) for i, a in enumerate(placed) for b in placed[i + 1 :] if a.overlaps(b)]


def cut(root: ET.Element) -> list[str]:
    """The texts that reach past the viewBox's left or right edge (the phone would cut them)."""
    left, _, width, _ = (float(n) for n in (root.get("viewBox") or "").split())
    return [text.words for text in texts(root) if text.left < left or text.right > left + width]
