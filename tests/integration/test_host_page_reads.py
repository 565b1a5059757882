"""What one view of the host's page costs in AWS calls, counted on bin/host-server's server (its
stack on a virtual clock): each match is read once, the status beside it made from that read."""

from __future__ import annotations

import http.client

from test_host_server_http import server  # noqa: F401 - the fixture: one server on a virtual clock

from local_stack.aws.metering import Meter
from local_stack.laptop.server import HostServer

PLAYERS = [{"id": "ada", "email": "ada@example.com"}, {"id": "bo", "email": "bo@example.com"}]


def request(running: HostServer, method: str, path: str, body: str = "", cookie: str = "") -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", running.host_port, timeout=30)
    headers = {"content-type": "application/x-www-form-urlencoded"} | ({"cookie": cookie} if cookie else {})
    connection.request(method, path, body.encode(), headers)
    reply = connection.getresponse()
    reply.read()
    connection.close()
    return reply


def test_a_view_of_the_hosts_page_reads_each_match_once(server) -> None:  # noqa: F811 - the fixture
    for _ in range(2):
        created = server.stack.host({"command": "create", "match": {"game": "crates", "players": PLAYERS}})
        assert created["ok"], created
    server.stack.settle()
    login = request(server, "POST", "/login", f"token={server.host_token}")
    cookie = login.headers["set-cookie"].split(";")[0]
    stack = server.stack
    meter = Meter(stack, clients=[*stack.port_clients(), stack.client("dynamodb")])
    assert request(server, "GET", "/", cookie=cookie).status == 200
    calls = {operation: count for (service, operation), count in meter.reset().items() if service == "dynamodb"}
    # Two matches: one Scan lists their headers (the table is far under a page of 1 MB), one the
    # seasons' (none here: nothing more is read for them), then each match is read once, its
    # header and state in one BatchGetItem (read twice before: the page's list, then the status
    # command's own read). Each running match's sheets (who still owes what) are Queries, the
    # only other calls: nothing is written.
    assert (calls.pop("Scan"), calls.pop("BatchGetItem")) == (2, 2)
    assert set(calls) == {"Query"}
