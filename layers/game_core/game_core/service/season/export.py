"""A season's export (issue 31, item 4): its settings and state, its log chained as a match's is,
and the record of every match it began (`matches.export_record`, each with its own chained log):
what match-replay replays to the same eliminations and match-verify checks link by link."""

from __future__ import annotations

from game_core.errors import NotFound
from game_core.match import chain
from game_core.season.record import SeasonRecord, match_ids
from game_core.service.matches.lifecycle import export_record, logged
from game_core.service.ports import Ports


def export_season(ports: Ports, season_id: str) -> SeasonRecord:
    if ports.seasons is None:
        raise NotFound("this deployment runs no seasons")
    stored = ports.seasons.season(season_id)
    events = chain.chained(season_id, (logged(event) for event in ports.seasons.season_events(season_id)))
    return SeasonRecord(
        season_id=season_id,
        settings=stored.settings.model_dump(mode="json"),
        state=stored.state.model_dump(mode="json", exclude={"secret_hashes"}),
        events=events,
        matches=[export_record(ports, match_id) for match_id in match_ids(stored.state)],
    )
