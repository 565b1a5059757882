"""One webhook signing secret per cast member for the whole season.

A cast member with a `webhook` is subscribed in every match of the season, and each match's
subscription signs its deliveries. The season's step creates those matches itself and tells
nobody what it makes, so the signing secret is made once, when the season is created, and told
in the create reply (`webhook_secrets`) beside the season secret; every season match subscribes
the cast member with it (kept where each match's subscriptions are, under the season's id).

It is a secret of its own, not the season secret: a signing secret must be kept readable to sign
with, and the season secret, which lets its holder act as the player, is kept only as a hash."""

from __future__ import annotations

from game_core.errors import NotFound
from game_core.season.settings import SeasonSettings
from game_core.service.ports import Ports
from game_core.service.webhooks import sending as webhooks
from game_core.service.webhooks.queue import Hook


def subscribe_cast(ports: Ports, settings: SeasonSettings, season_id: str) -> dict[str, str]:
    """A signing secret for each cast member with a webhook, kept under the season's id (before
    the season is stored: a failure here leaves nothing, and the host sends create again)."""
    hooked = {member.id: member.webhook for member in settings.cast if member.webhook}
    if not hooked:
        return {}
    hooks = ports.hooks
    if hooks is None:
        raise NotFound("this deployment delivers no webhooks: the cast's `webhook` cannot be kept")
    for url in hooked.values():
        webhooks.destination(url, hooks.resolve, hooks.allow_loopback)  # Malformed: refused before anything
    made = {member: webhooks.new_secret() for member in hooked}
    for member, url in hooked.items():
        hooks.put_hook(season_id, member, Hook(url, made[member]))
    return made


def cast_secrets(ports: Ports, season_id: str, players: list[str]) -> dict[str, str]:
    """The season's signing secret of each of `players` who has one (their match subscription's)."""
    if ports.hooks is None:
        return {}
    kept = {player: ports.hooks.hook(season_id, player) for player in players}
    return {player: hook.secret for player, hook in kept.items() if hook is not None}
