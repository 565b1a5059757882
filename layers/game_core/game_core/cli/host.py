"""The host's command line: the same commands as the AWS console's sample events, sent to the
host-commands function on AWS or on the local stack (`bin/local-stack`).

    match-host create settings.json           prints the match id, each player's secret and page link
                                               (JSON on stdout; the links, one a line, on stderr)
    match-host status MATCH_ID                 phase, deadline, who has submitted (never what)
    match-host extend MATCH_ID 3600            seconds to add to the open phase's deadline
    match-host pause|resume|resolve-now|cancel MATCH_ID
    match-host export MATCH_ID > record.json   the match record (replay it with match-replay)
    match-host recover MATCH_ID                a new execution for a match whose state machine stopped
    match-host decide MATCH_ID bo ada          rank the players a finished match left tied, best first
    match-host press MATCH_ID "text" [--to bo] a message from the host to everyone (or one)
    match-host press-mode MATCH_ID on|public|off [--per-hour 10]   messages between players: to anyone,
                                               to everyone only, or none (and how many each an hour)
    match-host reissue-secret MATCH_ID bo      a new webhook secret for a participant (the old one stops)
    match-host graces MATCH_ID 2 [--seconds 43200] [--to bo]   everyone's graces left (or bo's), and
                                               how long a grace holds a deadline
    match-host absence MATCH_ID bo refuse|cut [--to 2026-12-25] [--from 2026-12-24]
                                               refuse bo's absence, or cut it to end that day (bo's zone)
    match-host replace MATCH_ID bo --name Dana --email dana@example.com [--webhook URL] [--extend 3600]
                                               the seat to a new player (prints their secret; the old one stops)
    match-host webhook MATCH_ID @public URL    notices POSTed to URL (a participant id, @public or @alerts;
                                               prints the URL's signing secret); without URL: removed
    match-host pictures MATCH_ID [--phase 2] --out DIR   the boards as SVG after that many phases
                                               (default: all so far), for a game that draws them
    match-host redrive-mail MATCH_ID           the match's mail that failed every try (AWS down for six
                                               hours: the host was alerted) read again; applied once
    match-host season create|status|decide|guests|extend|pause|resume|cancel|recover|export ...
                                               a whole season (cli/host_season.py; docs/SEASONS.md)

Targets: --local (the local stack at http://127.0.0.1:5055), --server (the host server's
loopback address, bin/host-server, with the host token from --data, default local-data, or
$MATCH_HOST_TOKEN), or AWS with the usual credentials and --function (default:
$MATCH_HOST_FUNCTION), the HostCommandsFunction of the deployed stack.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import boto3
import botocore.exceptions

from game_core.aws.busy import aws_busy
from game_core.cli.failures import CliError, OneLineParser, one_line_errors, read_json
from game_core.cli.host_season import add_season_parser, season_command
from game_core.errors import not_seconds, placeholder_hint
from game_core.games import registry
from game_core.match.engine import setup_rng
from game_core.match.model import MatchRecord
from game_core.match.replay import replay_phase

LOCAL_ENDPOINT = "http://127.0.0.1:5055"
SIMPLE = ("status", "pause", "resume", "resolve-now", "cancel", "export", "recover", "redrive-mail")
DEFAULT_DATA = "local-data"
"""The host server's data folder unless told another (bin/host-server keeps it in its checkout)."""
HOST_TOKEN_FILE = "host-token"
"""The host token's file in the host server's data folder (made at its first start)."""


def seconds(text: str) -> int:
    """An argument of seconds; "12h" or "12 hours" is refused saying how to write it (43200)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(not_seconds(text)) from None


def match_id(text: str) -> str:
    """A match id argument, without the spaces a copy picks up; a placeholder left in is refused."""
    given = text.strip()
    if hint := placeholder_hint(given):
        raise argparse.ArgumentTypeError(hint)
    return given


def _add_seat_commands(commands: Any) -> None:
    """`replace` and `absence`: a seat's new player, a player's absence refused or cut."""
    replace = commands.add_parser("replace")
    replace.add_argument("match_id", type=match_id)
    replace.add_argument("seat", help="the seat's participant id (or its player's name)")
    replace.add_argument("--name", required=True, help="the new player's name")
    replace.add_argument("--email", help="the new player's address (none: they play by webhook)")
    replace.add_argument("--webhook", help="where the seat's notices are POSTed from now on (https://)")
    replace.add_argument("--extend", type=seconds, metavar="SECONDS", help="added to the open phase's deadline")
    absent = commands.add_parser("absence")
    absent.add_argument("match_id", type=match_id)
    absent.add_argument("player")
    absent.add_argument("act", choices=("refuse", "cut"))
    absent.add_argument("--to", help="cut: the absence's new last day (or date-time), in the player's zone")
    absent.add_argument("--from", dest="start", help="which absence, by its first day, when they have several")


def build_command(args: argparse.Namespace) -> dict[str, Any]:
    if args.command == "season":
        return season_command(args)
    if args.command == "create":
        loaded = read_json(args.settings, "a match's settings file (docs/hosts/settings.md)")
        if not isinstance(loaded, dict):
            raise CliError(f"{args.settings} holds no settings object {{...}}; see events/host_create.json")
        # Either the match settings alone or the whole console event (events/host_create.json).
        return {"command": "create", "match": loaded.get("match", loaded) if "command" in loaded else loaded}
    if args.command == "extend":
        return {"command": "extend", "match_id": args.match_id, "seconds": args.seconds}
    if args.command == "decide":
        return {"command": "decide", "match_id": args.match_id, "order": args.order}
    if args.command == "press":
        return {"command": "press", "match_id": args.match_id, "text": args.text, "to": args.to}
    if args.command == "pictures":  # drawn here from the exported record, as a replay rebuilds it
        return {"command": "export", "match_id": args.match_id}
    if args.command == "graces":
        return {"command": "graces", "match_id": args.match_id, "left": args.left} | {
            "seconds": args.seconds,
            "player": args.to,
        }
    if args.command == "press-mode":
        return {"command": "press_mode", "match_id": args.match_id, "mode": args.mode, "per_hour": args.per_hour}
    if args.command == "reissue-secret":
        return {"command": "reissue_secret", "match_id": args.match_id, "player": args.player}
    if args.command == "replace":
        return {
            "command": "replace",
            "match_id": args.match_id,
            "seat": args.seat,
            "name": args.name,
            "email": args.email,
            "webhook": args.webhook,
            "extend_seconds": args.extend,
        }
    if args.command == "absence":
        return {"command": "absence", "match_id": args.match_id, "player": args.player, "act": args.act} | {
            "to": args.to,
            "from": args.start,
        }
    if args.command == "webhook":
        return {"command": "webhook", "match_id": args.match_id, "target": args.target, "url": args.url}
    return {"command": args.command.replace("-", "_"), "match_id": args.match_id}


def send(command: dict[str, Any], function: str, endpoint: str | None) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    if endpoint:
        extra = {
            "endpoint_url": endpoint,
            "region_name": "us-east-1",
            "aws_access_key_id": "local",
            "aws_secret_access_key": "local",
        }
    client = boto3.client("lambda", **extra)
    try:
        response = client.invoke(FunctionName=function, Payload=json.dumps(command).encode())
    except botocore.exceptions.ClientError as error:  # Lambda throttled the invocation: the act never ran
        busy = aws_busy(error)
        if busy is None:
            raise
        return {"ok": False} | busy.to_json()
    reply: dict[str, Any] = json.loads(response["Payload"].read())
    if response.get("FunctionError"):
        return {"ok": False, "error": reply.get("errorType"), "message": reply.get("errorMessage")}
    return reply


def read_host_token(data: Path) -> str | None:
    """$MATCH_HOST_TOKEN, else the token the host server keeps in `data`; None if neither is there."""
    if os.environ.get("MATCH_HOST_TOKEN"):
        return os.environ["MATCH_HOST_TOKEN"]
    try:
        return (data / HOST_TOKEN_FILE).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None


def server_url(server: str) -> str:
    """--server's address as a URL without a trailing slash ("127.0.0.1:8081", written in a
    hurry, is http://127.0.0.1:8081); one that is no http(s) address of a host is refused,
    naming it, rather than failing in urllib (http.client.InvalidURL, "unknown url type")."""
    address = server.strip()
    address = address if "://" in address else f"http://{address}"
    parts = urllib.parse.urlsplit(address)
    try:
        port_ok = parts.port is None or parts.port > 0
    except ValueError:  # not a number, or past 65535
        port_ok = False
    if not (parts.scheme in ("http", "https") and parts.hostname and port_ok) or any(
        char.isspace() or not char.isprintable() for char in address
    ):
        raise CliError(
            f"--server {server!r} is not the host server's address: give its host port's URL,"
            " like http://127.0.0.1:8081 (bin/host-server prints it)"
        )
    return address.rstrip("/")


def send_to_server(command: dict[str, Any], server: str, token: str) -> dict[str, Any]:
    """The command to the host server's loopback route (bin/host-server), which answers as the function."""
    headers = {"content-type": "application/json", "authorization": f"Bearer {token}"}
    request = urllib.request.Request(f"{server_url(server)}/host", data=json.dumps(command).encode(), headers=headers)
    not_host_port = "not bin/host-server's host port (the players' port + 1, on 127.0.0.1: 8081 by default)"
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            reply: dict[str, Any] = json.loads(response.read())
    except urllib.error.HTTPError as error:  # its body is the reply: {"ok": false, ...}
        try:
            reply = json.loads(error.read())
        except ValueError:
            raise CliError(f"{server} answered {error.code} {error.reason}: {not_host_port}?") from None
        if "ok" not in reply:  # another server's JSON: the players' port answers 404 to /host
            raise CliError(f"{server} answered {error.code} {error.reason}: {not_host_port}") from None
    except urllib.error.URLError as error:
        raise CliError(
            f"cannot reach {server} ({error.reason}): start bin/host-server, whose host commands take its --port + 1"
        ) from None
    return reply


def links_summary(created: dict[str, Any]) -> str:
    """For the host to read (stdout holds the reply as JSON, for scripts): each participant's link
    to their page, one a line, and what to do with them."""
    links: dict[str, str] = created.get("links", {})
    lines = [f"Match {created.get('match_id')}: each player's page (send each their own, privately; not shown again):"]
    lines += [f"  {who}: {link}" for who, link in links.items()]
    if any(link.startswith("/") for link in links.values()):
        lines.append("  (put the address players reach the service at before each: http://<address>:<port>/play/...)")
    return "\n".join(lines) + "\n"


def write_pictures(exported: dict[str, Any], phases: int | None, out: str) -> list[str]:
    """The pictures of the public view after `phases` resolved phases of an exported match (None:
    all of them), written to `out` under the names the view gives them; the paths written."""
    record = MatchRecord.model_validate(exported)
    try:
        draw = importlib.import_module(f"game_core.games.{record.game}.pictures").pictures
    except ModuleNotFoundError:
        raise CliError(f"{record.game} draws no pictures") from None
    game = registry.load(record.game)
    state = game.setup(game.Settings.model_validate(record.settings), tuple(record.players), setup_rng(record.seed))
    for phase in sorted(record.phases, key=lambda p: p.number)[:phases]:
        state = replay_phase(game, state, record.seed, phase)
    os.makedirs(out, exist_ok=True)
    written = []
    for name, svg in draw(game.view(state, None)["public"], {}).items():
        path = os.path.join(out, name)
        with open(path, "w", encoding="utf-8") as picture:
            picture.write(svg)
        written.append(path)
    return written


def _parser() -> OneLineParser:
    parser = OneLineParser(prog="match-host", description=__doc__.splitlines()[0])
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--local", action="store_true", help=f"the local stack at {LOCAL_ENDPOINT}")
    target.add_argument("--endpoint", help="another endpoint (a moto server, say)")
    target.add_argument("--server", help="the host server's host commands (bin/host-server), http://127.0.0.1:8081")
    parser.add_argument("--function", default=os.environ.get("MATCH_HOST_FUNCTION", "HostCommandsFunction"))
    parser.add_argument(
        "--data", type=Path, default=Path(DEFAULT_DATA), help="the host server's data folder, for its host token"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("create").add_argument("settings", help="the match settings file (JSON)")
    extend = commands.add_parser("extend")
    extend.add_argument("match_id", type=match_id)
    extend.add_argument("seconds", type=seconds)
    for name in SIMPLE:
        commands.add_parser(name).add_argument("match_id", type=match_id)
    decide = commands.add_parser("decide")
    decide.add_argument("match_id", type=match_id)
    decide.add_argument("order", nargs="+", help="the tied players, best first")
    press = commands.add_parser("press")
    press.add_argument("match_id", type=match_id)
    press.add_argument("text")
    press.add_argument("--to", help="one participant's id or name (default: everyone)")
    graces = commands.add_parser("graces")
    graces.add_argument("match_id", type=match_id)
    graces.add_argument("left", type=int, help="the graces each participant (or --to's) has left")
    graces.add_argument("--seconds", type=seconds, help="how long a grace holds a deadline (needed the first time)")
    graces.add_argument("--to", help="one participant's id or name (default: everyone)")
    press_mode = commands.add_parser("press-mode")
    press_mode.add_argument("match_id", type=match_id)
    press_mode.add_argument("mode", type=str.lower, choices=("on", "public", "off"))
    press_mode.add_argument("--per-hour", type=int, help="how many messages each participant may send in any hour")
    reissue = commands.add_parser("reissue-secret")
    reissue.add_argument("match_id", type=match_id)
    reissue.add_argument("player")
    _add_seat_commands(commands)
    add_season_parser(commands, seconds)
    webhook = commands.add_parser("webhook")
    webhook.add_argument("match_id", type=match_id)
    webhook.add_argument("target", help="a participant's id, @public (every public notice) or @alerts (host alerts)")
    webhook.add_argument("url", nargs="?", help="where to POST (https://; Discord and Slack get their own bodies)")
    pictures = commands.add_parser("pictures")
    pictures.add_argument("match_id", type=match_id)
    pictures.add_argument("--phase", type=int, help="resolved phases to draw after (default: all)")
    pictures.add_argument("--out", required=True, help="the folder to write the SVG files to")
    return parser


def _via_server(command: dict[str, Any], server: str, data: Path) -> dict[str, Any]:
    """The host server's reply to `command`, sent with its host token (from `data`)."""
    token = read_host_token(data)
    if token is None:
        raise CliError(
            f"no host token in {data.absolute() / HOST_TOKEN_FILE}: give --data the host server's data folder"
            " (bin/host-server's default: local-data in its checkout), or $MATCH_HOST_TOKEN"
        )
    reply = send_to_server(command, server, token)
    if reply.get("error") == "Unauthorized":  # the server cannot say where the token came from: here it is known
        refused = f"{server} refused the host token"
        if os.environ.get("MATCH_HOST_TOKEN"):
            raise CliError(f"{refused} in $MATCH_HOST_TOKEN: unset it to use the server's {HOST_TOKEN_FILE}")
        raise CliError(f"{refused} in {data / HOST_TOKEN_FILE}: give the server's own --data folder")
    return reply


@one_line_errors("match-host")
def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    endpoint = LOCAL_ENDPOINT if args.local else args.endpoint
    command = build_command(args)
    reply = _via_server(command, args.server, args.data) if args.server else send(command, args.function, endpoint)
    ok = reply.get("ok", False)
    exported = args.command in ("export", "pictures") or (args.command == "season" and args.action == "export")
    if exported and ok:
        reply.pop("ok")  # the bare record, ready for match-replay
    if args.command == "pictures" and ok:
        reply = {"ok": True, "written": write_pictures(reply, args.phase, args.out)}
    json.dump(reply, sys.stdout, indent=2)
    sys.stdout.write("\n")
    if args.command == "create" and ok:
        sys.stderr.write(links_summary(reply))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
