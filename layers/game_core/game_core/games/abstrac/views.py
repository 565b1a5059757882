"""What each participant of Abstrac may know: everything (perfect information), so every
private part is empty. The public view lays out the row or the deal line, the cards each player
took with their combinations, the clocks and every move."""

from __future__ import annotations

from typing import Any

from game_core.games.abstrac import deal, row
from game_core.games.abstrac.cards import SUIT_TO_COLOUR, hand_json
from game_core.games.abstrac.models import AbstracState


def view(state: AbstracState, player: str | None) -> dict[str, Any]:
    public = row_view(state) if state.settings.rule_set == "row" else deal_view(state)
    return {"public": public} if player is None else {"public": public, "private": {}}


def row_view(state: AbstracState) -> dict[str, Any]:
    part = state.row
    assert part is not None
    settings = state.settings
    public: dict[str, Any] = {
        "game": "abstrac",
        "rule_set": "row",
        "card_codes": "number 1-6 then colour: R red, Y yellow, G green, B blue",
        "players": list(state.players),
        "protected": part.protected,
        "stage": part.stage,
        "starter": part.starter,
        "to_move": row.whose_move(part),
        "row": part.row[part.picked :],
        "laid": list(part.row),
        "unused": row.unused(part),
        "last_layer": part.last_layer,
        "taken": {p: row.score_json(state, p) for p in state.players},
        "clocks": {
            p: {
                "move_seconds": settings.move_seconds,
                "reserve_left": part.clocks[p].reserve_left,
                "used_on_current_move": part.clocks[p].pending,
                "on_empty_reserve": settings.on_empty_reserve,
            }
            for p in state.players
        },
        "moves": [move.model_dump(mode="json") for move in part.moves],
        "lost_on_time": part.lost_on_time,
    }
    return public


def deal_view(state: AbstracState) -> dict[str, Any]:
    part = state.deal
    assert part is not None
    settings = state.settings
    return {
        "game": "abstrac",
        "rule_set": "deal",
        "card_codes": "number 1-6 then colour R, Y, G, B (the text's suits A, B, C, D)",
        "suits": dict(SUIT_TO_COLOUR),
        "players": list(state.players),
        "target": settings.target,
        "deal": part.number,
        "starter": part.starter,
        "to_move": part.to_move,
        "over": part.over,
        "line": part.line[part.position :],
        "line_source": part.line_source,
        "taken": {p: hand_json(part.taken[p]) for p in state.players},
        "totals": dict(part.totals),
        "deals": [deal.record_json(record) for record in part.finished],
        "clocks": {
            p: {
                "period_seconds": settings.period_seconds,
                "periods_left": part.clocks[p].periods_left,
                "used_on_current_move": part.clocks[p].pending,
            }
            for p in state.players
        },
        "moves": [move.model_dump(mode="json") for move in part.moves],
        "lost_on_time": part.lost_on_time,
    }
