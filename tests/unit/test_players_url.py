"""The address in the links bin/host-server's create gives (local_stack/laptop/players_url.py): its
--host, or on every interface (0.0.0.0) this machine's own address, never 0.0.0.0 itself."""

from __future__ import annotations

import ipaddress

from local_stack.laptop.players_url import players_url


def test_a_host_given_is_the_players_address() -> None:
    assert players_url("192.168.1.20", 8080) == "http://192.168.1.20:8080"
    assert players_url("fd00::20", 8080) == "http://[fd00::20]:8080"


def test_every_interface_gives_this_machines_own_address() -> None:
    address = players_url("0.0.0.0", 8080).removeprefix("http://").removesuffix(":8080")
    assert not ipaddress.ip_address(address).is_unspecified  # an address a player can reach (or loopback)
