"""The address players reach bin/host-server's players' port at, for the links create gives
(`service.telling.links`): `--host`, or with 0.0.0.0 (every interface) this laptop's address on its network."""

from __future__ import annotations

import socket

from game_core.service.telling.links import PLAYERS_URL

EVERY_INTERFACE = ("0.0.0.0", "", "::")
__all__ = ["PLAYERS_URL", "players_url"]


def lan_address() -> str:
    """This laptop's address on its network: the one a packet to a documentation address
    (192.0.2.1, never reached) would leave from; no packet is sent. 127.0.0.1 without a network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:
            return "127.0.0.1"
        address: str = probe.getsockname()[0]
    return address


def players_url(host: str, port: int) -> str:
    """http://<the address players reach>:<port>, with no trailing slash."""
    address = lan_address() if host in EVERY_INTERFACE else host
    return f"http://[{address}]:{port}" if ":" in address else f"http://{address}:{port}"
