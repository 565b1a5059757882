"""Where a webhook URL may point: `https://` to public addresses only (no private network, no
cloud metadata service), checked at subscription and again at every delivery (`destination`).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from game_core.errors import Malformed, Reason

MAX_URL = 2048


@dataclass(frozen=True)
class Destination:
    """A URL checked against its addresses: `address` is the one to connect to (the very one
    checked, so a name that resolves elsewhere a moment later changes nothing)."""

    url: str
    host: str
    port: int
    address: str
    tls: bool


def _refused(url: str, why: str) -> Malformed:
    return Malformed("the webhook URL is refused", [Reason("webhook_url", f"{url[:100]}: {why}")])


def _public(address: str) -> bool:
    """Whether an address is on the public internet: not private, loopback, link-local (the cloud
    metadata service, 169.254.169.254), ULA (fd00:ec2::254 too), CGNAT, multicast or reserved,
    also when it hides inside an IPv6 one (IPv4-mapped, 6to4, Teredo)."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address):
        inner = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if inner is not None and not _public(str(inner)):
            return False
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_unspecified)


_LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
_LOOPBACK_HINT = (
    "; for a receiver on the laptop, start bin/host-server with --allow-loopback-webhooks and "
    "give http://127.0.0.1:<port>/... (the address itself, not a name)"
)
"""What a refused URL to the laptop itself is told: the way to what was meant."""


def _loopback(address: str) -> bool:
    return ipaddress.ip_address(address) == ipaddress.ip_address("127.0.0.1")


def destination(url: str, resolve: Callable[[str], list[str]], allow_loopback: bool = False) -> Destination:
    """The URL, if a delivery may go there: `https://` to a name (or address) all of whose
    addresses are public; with `allow_loopback` (the laptop's flag), `http://127.0.0.1` too.
    Malformed naming what is wrong otherwise; checked at subscription and at every delivery."""
    if len(url) > MAX_URL:
        raise _refused(url, f"{len(url)} characters; at most {MAX_URL}")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise _refused(url, f"not a URL ({error})") from None
    host = parts.hostname or ""
    if parts.username is not None or parts.password is not None:
        raise _refused(url, "a URL with a user name or password is not taken")
    if not host:
        raise _refused(url, "no host")
    loopback = allow_loopback and parts.scheme == "http" and host == "127.0.0.1"
    if parts.scheme != "https" and not loopback:
        raise _refused(url, "only https:// URLs are taken" + _LOOPBACK_HINT * (host in _LOOPBACK_NAMES))
    try:
        addresses = resolve(host)
    except OSError:
        raise _refused(url, f"{host} does not resolve") from None
    if not addresses:
        raise _refused(url, f"{host} does not resolve")
    for address in addresses:
        if not (_public(address) or (loopback and _loopback(address))):
            raise _refused(url, f"{host} resolves to {address}, which is not a public address")
    return Destination(url, host, port or (443 if parts.scheme == "https" else 80), addresses[0], not loopback)
