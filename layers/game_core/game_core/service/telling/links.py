"""Each participant's link to their page: `<players' address>/play/<match_id>#<secret>`.

`create` replies with each participant's link as a path (the service does not know the address
players reach it at); the host-commands function puts the players' address before each, from
`PLAYERS_URL` (the HTTP API's URL on AWS, set by template.yaml; the LAN address on
bin/host-server). The secret is the part after `#`: a browser never sends it in a request.

`mail_links` mails each participant with an address the link the host was given, once: a link
whose secret is not the participant's is refused, so nothing but their own page's link is mailed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from game_core.errors import Illegal, NotOpen, Reason
from game_core.games import registry
from game_core.match.model import Match, secret_hash
from game_core.service.ports import Ports
from game_core.service.telling import channels as telling
from game_core.service.telling import letters
from game_core.service.telling.notices import told_key

PLAYERS_URL = "PLAYERS_URL"
"""The environment variable holding the address players reach the service at (no trailing slash)."""


def play_path(match_id: str, secret: str) -> str:
    return f"/play/{match_id}#{secret}"


def paths(match_id: str, secrets: Mapping[str, str]) -> dict[str, str]:
    """Each participant's link without the players' address."""
    return {participant: play_path(match_id, secret) for participant, secret in secrets.items()}


def addressed(reply: dict[str, Any], players_url: str) -> dict[str, Any]:
    """`reply` with the players' address before each of its links (when it has links and the
    address is known: else they stay paths)."""
    if not players_url or "links" not in reply:
        return reply
    base = players_url.rstrip("/")
    return reply | {"links": {who: base + link for who, link in reply["links"].items()}}


def _secret_in(match: Match, participant: str, link: str) -> str:
    """The secret `link` carries, when it is the whole address of this match's page; raises
    Illegal naming the participant otherwise."""
    parts = urlsplit(link.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise Illegal(
            "the links are not mailed",
            [Reason("link_not_whole", f"{participant}'s link is no whole address (http://...): {link[:100]}")],
        )
    if parts.path != f"/play/{match.match_id}" or not parts.fragment:
        raise Illegal(
            "the links are not mailed",
            [Reason("link_not_this_match", f"{participant}'s link is not a page of match {match.match_id}")],
        )
    return parts.fragment


def mail_links(ports: Ports, match_id: str, links: Mapping[str, str]) -> dict[str, Any]:
    """Mail each participant named in `links` (by id or by name) who has an address their link,
    once: each link must carry the participant's own secret (Illegal otherwise, before anything
    is sent). Sent again, a link already mailed in this phase is not mailed twice; its Message-ID
    is the same in any case, for a receiver to drop a repeat. A mail the mail service refuses for
    good is recorded for the host's status (`telling.send`) and listed as `refused`."""
    if not ports.mailer.domain:
        raise NotOpen("this deployment sends no mail of its own (no mail domain): share each link yourself")
    match = ports.store.get(match_id)
    wanted = {match.named(who): link for who, link in links.items()}
    people = {player.id: player for player in match.players}
    for participant, link in wanted.items():
        if secret_hash(_secret_in(match, participant, link)) != people[participant].secret_hash:
            reason = Reason("link_secret", f"{participant}'s link does not carry their secret (reissued since?)")
            raise Illegal("the links are not mailed", [reason])
    title = registry.load(match.game).title
    mailed: list[str] = []
    refused: list[str] = []
    already: list[str] = []
    unaddressed: list[str] = []
    sent: list[str] = []
    now = ports.clock.now()
    try:
        for participant, link in wanted.items():
            player = people[participant]
            told_as = f"{match_id}/link/{participant}/{player.secret_hash[:16]}"
            if not player.email:
                unaddressed.append(participant)
            elif told_key(told_as) in match.told:
                already.append(participant)
            else:
                lines = _lines(match, title, player.name, link)
                subject = f"{title}: your page"
                mail = letters.note(match, player.email, subject, lines, now, ports.mailer.domain, told_as)
                (mailed if telling.send(ports, match, mail, participant) else refused).append(participant)
                sent.append(told_key(told_as))
    finally:
        if sent:
            ports.store.remember_told(match_id, frozenset(sent))
    reply = {"match_id": match_id, "mailed": mailed, "mailed_before": already, "no_address": unaddressed}
    return reply | ({"refused": refused} if refused else {})


def _lines(match: Match, title: str, name: str, link: str) -> list[str]:
    """The mail's text, a paragraph a line (sent format=flowed: the reader's client wraps them)."""
    return [
        f"Hello {name},",
        "",
        f"You play {title} in match {match.match_id}. Your page shows the game as you see it, and takes your moves:",
        "",
        f"  {link}",
        "",
        "Keep this link to yourself: it signs you in as you. If someone else may have it, ask the host for a "
        "new one (the old one then stops working).",
    ]
