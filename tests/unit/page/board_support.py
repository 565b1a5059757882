"""Reading a drawn board back (`capabilities.Board`): its SVG parsed, its marked elements by key, the
texts an element writes, in order."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from game_core.games import registry
from game_core.games.capabilities import Board, DrawsBoard


def local(tag: str) -> str:
    return tag.rpartition("}")[2]


def drawn(game_id: str, state: Any, viewer: str, names: Mapping[str, str]) -> Board:
    """The board of `viewer`'s view of `state`."""
    game = registry.load(game_id)
    assert isinstance(game.text, DrawsBoard), f"{game_id} draws no board"
    board = game.text.draw_board(game.view(state, viewer), names, viewer)
    assert board is not None
    return board


def parsed(svg: str) -> ET.Element:
    """The SVG, held to `Board`'s contract: one well-formed svg, role img, a title first, a
    viewBox and no fixed size, no id, no style, no script."""
    root = ET.fromstring(svg)
    assert local(root.tag) == "svg" and root.get("role") == "img"
    assert local(root[0].tag) == "title" and (root[0].text or "").strip()
    assert len((root.get("viewBox") or "").split()) == 4 and root.get("width") is None and root.get("height") is None
    for element in root.iter():
        assert local(element.tag) not in ("script", "style", "foreignObject")
        assert not {"id", "style"} & set(element.attrib), element.attrib
        assert not any(name.startswith("on") for name in element.attrib)
    return root


def marks(root: ET.Element) -> dict[str, ET.Element]:
    found = {element.get("data-mark"): element for element in root.iter() if element.get("data-mark")}
    return {str(key): element for key, element in found.items()}


def texts(element: ET.Element) -> list[str]:
    """What each `text` inside writes, in drawing order (the `title` not included)."""
    return [one.text or "" for one in element.iter() if local(one.tag) == "text"]


def fills(element: ET.Element, tag: str = "rect") -> list[str]:
    return [str(one.get("fill")) for one in element.iter() if local(one.tag) == tag]
