"""Every command line tool's error is one line on stderr naming the fix, exit code 2, and no
traceback: match-host, match-replay, match-schemas, match-asl (called as their main), and
bin/host-server, bin/local-stack, bin/mail-in (as processes, the way a host runs them)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from game_core.cli import asl, host, replay, schemas
from local_stack.aws import inbound_bucket
from local_stack.laptop import cli as host_server

ROOT = Path(__file__).resolve().parents[3]
WORKED = {"match_id": "m-1", "game": "crates", "settings": {}, "seed": 7, "players": ["ann", "bob"]}
WORKED |= {"starting_garnets": {"ann": 0, "bob": 0}, "status": "running"}


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A loopback port nothing listens on (bound without listening, so nobody else takes it)."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield held.getsockname()[1]


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A loopback port another program listens on."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        yield server.getsockname()[1]


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """Files a host might hand a tool by mistake."""
    (tmp_path / "commented.json").write_text('{\n  "game": "crates",   // crates | palindrome\n}\n')
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "not-a-record.json").write_text('{"match_id": "m-1"}')
    phases = [{"number": 1, "name": "Round 9", "submissions": {}, "elapsed_seconds": 60}]
    phases[0] |= {"extension_seconds": 0, "timed_out": True}
    (tmp_path / "wrong-phase.json").write_text(json.dumps(WORKED | {"phases": phases}))
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00garbage")
    return tmp_path


NO_AWS = {"AWS_REGION": None, "AWS_DEFAULT_REGION": None, "AWS_CONFIG_FILE": "/nonexistent"}
CASES = [
    # (tool, its arguments ({files}, {closed} are filled in), environment, words the one line says)
    (host, ["create", "{files}/missing.json"], {}, ["no such file", "missing.json"]),
    (host, ["create", "{files}/commented.json"], {}, ["is not JSON", "line 2", "remove the // notes"]),
    (host, ["create", "{files}/list.json"], {}, ["no settings object", "events/host_create.json"]),
    (host, ["create", "{files}"], {}, ["cannot use", "Is a directory"]),
    (host, ["status", "m-1"], NO_AWS, ["no AWS region", "--server", "--local"]),
    (
        host,
        ["--server", "http://127.0.0.1:{closed}", "status", "m-1"],
        {"MATCH_HOST_TOKEN": "t"},
        ["cannot reach", "bin/host-server"],
    ),
    # --server that is no address (issue 29: a traceback, http.client.InvalidURL), or not http's
    (host, ["--server", "not a url", "status", "m-1"], {"MATCH_HOST_TOKEN": "t"}, ["--server 'not a url' is not"]),
    (host, ["--server", "127.0.0.1:80x", "status", "m-1"], {"MATCH_HOST_TOKEN": "t"}, ["like http://127.0.0.1:8081"]),
    (
        host,
        ["--server", "ftp://127.0.0.1:8081", "status", "m-1"],
        {"MATCH_HOST_TOKEN": "t"},
        ["'ftp://127.0.0.1:8081'"],
    ),
    (host, ["--server", "http://", "status", "m-1"], {"MATCH_HOST_TOKEN": "t"}, ["'http://' is not the host server's"]),
    (
        host,
        ["--endpoint", "http://127.0.0.1:{closed}", "status", "m-1"],
        {"AWS_MAX_ATTEMPTS": "1"},
        ["cannot reach", "127.0.0.1:{closed}"],
    ),
    (
        host,
        ["--server", "http://127.0.0.1:{closed}", "--data", "{files}/elsewhere", "status", "m-1"],
        {"MATCH_HOST_TOKEN": None},
        ["no host token in {files}/elsewhere/host-token", "(bin/host-server's default: local-data in its checkout)"],
    ),
    (host, ["launch", "m-1"], {}, ["invalid choice: 'launch'", "match-host --help"]),
    (host, ["extend", "m-1", "an hour"], {}, ["'an hour' is not a number of seconds", "match-host extend --help"]),
    # A duration where seconds are asked: worked out (2 x 3600 = 7200, 12 x 3600 = 43200, 86400 a day)
    (host, ["extend", "m-1", "2h"], {}, ["argument seconds: '2h' is not a number of seconds: write 7200 for 2 hours"]),
    (host, ["graces", "m-1", "2", "--seconds", "12 hours"], {}, ["write 43200 for 12 hours", "graces --help"]),
    (host, ["replace", "m-1", "bo", "--name", "Dana", "--extend", "1d"], {}, ["write 86400 for 1 day"]),
    (host_server, ["--grace-seconds", "1h"], {}, ["--grace-seconds: '1h' is not a number of seconds: write 3600"]),
    (replay, ["{files}/missing.json"], {}, ["no such file", "missing.json"]),
    (replay, ["{files}/commented.json"], {}, ["is not JSON"]),
    (replay, ["{files}/binary.json"], {}, ["not a text file"]),
    (replay, ["{files}/not-a-record.json"], {}, ["is not an exported match record", "match-host export"]),
    (replay, ["{files}/wrong-phase.json"], {}, ["does not replay", "'Round 9'", "Pregame"]),
    (schemas, ["chess"], {}, ["invalid choice: 'chess'", "clubs"]),
    (schemas, ["palindrome", "--rule-set", "mm9"], {}, ["no rule set 'mm9'", "mm8, mm5"]),
    (asl, ["--root", "{files}/nowhere", "--check"], {}, ["no such file", "template.yaml"]),
    (inbound_bucket, ["{files}/missing.eml"], {}, ["no such file", "missing.eml"]),
    (
        inbound_bucket,
        ["{files}/list.json", "--endpoint", "http://127.0.0.1:{closed}"],
        {"AWS_MAX_ATTEMPTS": "1"},
        ["cannot reach", "bin/local-stack"],
    ),
]


@pytest.mark.parametrize(("tool", "argv", "env", "words"), CASES)
def test_a_tool_error_is_one_line_naming_the_fix_with_exit_code_2(
    tool, argv, env, words, files, closed_port, capsys, monkeypatch
) -> None:
    for name, value in env.items():
        monkeypatch.delenv(name, raising=False) if value is None else monkeypatch.setenv(name, value)
    fill = {"files": str(files), "closed": str(closed_port)}

    code = tool.main([arg.format(**fill) for arg in argv])

    said = capsys.readouterr().err
    assert code == 2
    assert said.count("\n") == 1 and said.endswith("\n"), said
    assert "Traceback" not in said
    for word in words:
        assert word.format(**fill) in said, said


@pytest.mark.parametrize(
    ("module", "prog", "extra"),
    [
        ("local_stack.aws.server", "bin/local-stack", []),
        ("local_stack.laptop", "bin/host-server", ["--host-port", "0", "--data", "{tmp}"]),
    ],
)
def test_a_server_on_a_port_in_use_says_so_in_one_line(module, prog, extra, busy_port, tmp_path) -> None:
    argv = ["--port", str(busy_port), *(arg.format(tmp=tmp_path) for arg in extra)]

    ran = subprocess.run([sys.executable, "-m", module, *argv], cwd=ROOT, capture_output=True, text=True, timeout=120)

    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.count("\n") == 1 and ran.stderr.startswith(f"{prog}: "), ran.stderr
    assert "in use" in ran.stderr and "port" in ran.stderr


@pytest.mark.parametrize(
    ("env", "said"),
    [
        (
            {"MATCH_HOST_TOKEN": "old"},
            "refused the host token in $MATCH_HOST_TOKEN: unset it to use the server's host-token",
        ),
        ({}, "refused the host token in {data}/host-token: give the server's own --data folder"),
    ],
)
def test_a_host_token_the_server_refuses_is_named_by_where_it_came_from(
    env, said, tmp_path, monkeypatch, capsys
) -> None:
    # the server answers 401 without knowing which token match-host read; match-host knows
    (tmp_path / "host-token").write_text("stale\n")
    monkeypatch.delenv("MATCH_HOST_TOKEN", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    refused = {"ok": False, "error": "Unauthorized", "message": "the host token is missing or wrong"}
    monkeypatch.setattr(host, "send_to_server", lambda command, server, token: refused)

    code = host.main(["--server", "http://127.0.0.1:8081", "--data", str(tmp_path), "status", "m-1"])

    line = capsys.readouterr().err
    assert code == 2 and line == f"match-host: http://127.0.0.1:8081 {said.format(data=tmp_path)}\n"


@pytest.fixture
def answering_port() -> Iterator[tuple[int, list[int]]]:
    """A loopback server that answers a POST to /host as the players' port does (404, JSON without
    "ok") and one to /ok/host as the host port does; with the statuses it answered."""
    import http.server
    import threading

    answered: list[int] = []

    class Answer(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            self.rfile.read(int(self.headers["content-length"]))
            status, body = (200, {"ok": True}) if self.path == "/ok/host" else (404, {"message": "Not Found"})
            answered.append(status)
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(json.dumps(body).encode())

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1], answered
    finally:
        server.shutdown()
        server.server_close()


def test_match_host_at_the_players_port_says_it_is_not_the_host_port(answering_port, monkeypatch, capsys) -> None:
    # the README shares :8080 with the players; the host's commands take :8081
    port, answered = answering_port
    monkeypatch.setenv("MATCH_HOST_TOKEN", "t")

    code = host.main(["--server", f"http://127.0.0.1:{port}", "status", "m-1"])

    said = "answered 404 Not Found: not bin/host-server's host port (the players' port + 1, on 127.0.0.1: 8081"
    assert code == 2 and answered == [404]
    assert capsys.readouterr().err.startswith(f"match-host: http://127.0.0.1:{port} {said}")


def test_match_host_takes_the_server_without_its_scheme(answering_port, monkeypatch, capsys) -> None:
    port, answered = answering_port
    monkeypatch.setenv("MATCH_HOST_TOKEN", "t")
    assert host.main(["--server", f"127.0.0.1:{port}/ok", "status", "m-1"]) == 0 and answered == [200]


def test_a_host_command_whose_invocation_aws_throttles_is_told_to_send_it_again(monkeypatch, capsys) -> None:
    # Lambda refuses the invocation itself (the account's concurrency, past botocore's retries):
    # the reply is the function's own kind of refusal, not a traceback or "AWS refused"
    from botocore.exceptions import ClientError

    class Throttled:
        def invoke(self, **_kwargs: object) -> None:
            error = {"Code": "TooManyRequestsException", "Message": "Rate exceeded"}
            raise ClientError({"Error": error, "ResponseMetadata": {"HTTPStatusCode": 429}}, "Invoke")

    monkeypatch.setattr(host.boto3, "client", lambda *_args, **_kwargs: Throttled())

    code = host.main(["status", "m-1"])

    reply = json.loads(capsys.readouterr().out)
    assert code == 1
    assert (reply["ok"], reply["error"], reply["retry_after"]) == (False, "Unavailable", 5)
    assert (
        "(Invoke: TooManyRequestsException)" in reply["message"] and "send the same command again" in reply["message"]
    )
