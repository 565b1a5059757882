"""The load benchmark's server: `bin/host-server` as a subprocess on a data folder, reached only
through its public ports (the players' HTTP API and page, the host commands with the host token),
and what the kernel says it used (CPU time and peak RSS from /proc, no psutil)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHECKOUT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 600.0
"""How long a start may take before the harness gives up: a guard against a hang, not a figure (a
start takes seconds; on a machine loaded thirty deep, two minutes were not enough)."""
REQUEST_TIMEOUT = 60.0


class ServerFailed(RuntimeError):
    """bin/host-server did not start, or answered a host command with a refusal."""


@dataclass(frozen=True)
class Usage:
    cpu_seconds: float
    peak_rss_mb: float


def usage(pid: int) -> Usage:
    """The process's user+system CPU time (/proc/PID/stat) and its peak resident set (VmHWM)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()  # after the command's name, which may hold spaces
    ticks = int(fields[11]) + int(fields[12])  # utime, stime: the stat file's 14th and 15th fields
    status = Path(f"/proc/{pid}/status").read_text()
    peak = re.search(r"^VmHWM:\s+(\d+) kB", status, re.MULTILINE)
    return Usage(ticks / os.sysconf("SC_CLK_TCK"), int(peak.group(1)) / 1024 if peak else 0.0)


def folder_megabytes(folder: Path) -> float:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file()) / 1e6


@dataclass
class HostServerProcess:
    """One `bin/host-server` on `data`: its players' port and host port (0: any free one; a restart
    passes the ports the first start bound, so clients' addresses stay good)."""

    data: Path
    port: int = 0
    host_port: int = 0
    smtp_port: int = 0
    relay_port: int = 0
    """Where the server sends its mail (`--smtp-relay`: the harness's `MailSink`); 0: kept in the
    outbox only."""
    on_restart: str = "resolve"
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    token: str = ""

    def start(self) -> float:
        """Starts the server; the seconds until its players' port answered a request."""
        started = time.monotonic()
        command = [str(CHECKOUT / "bin/host-server"), "--data", str(self.data), "--port", str(self.port)]
        command += ["--on-restart", self.on_restart] + (["--host-port", str(self.host_port)] if self.host_port else [])
        command += ["--smtp-port", str(self.smtp_port), "--allow-loopback-webhooks"]  # the mail and webhook channels
        if self.relay_port:
            command += ["--smtp-relay", f"127.0.0.1:{self.relay_port}", "--smtp-security", "plain"]
        log = (self.data.parent / "host-server.log").open("ab")
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, cwd=CHECKOUT)
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            line = raw.decode()
            if found := re.match(r"players: http://[^:]+:(\d+)", line):
                self.port = int(found.group(1))
            elif found := re.search(r"--server http://127\.0\.0\.1:(\d+)", line):
                self.host_port = int(found.group(1))
            elif found := re.search(r"by SMTP on port (\d+)", line):
                self.smtp_port = int(found.group(1))
            if line.startswith("kept in:"):
                break
        if not (self.port and self.host_port and self.smtp_port):
            raise ServerFailed(f"bin/host-server stopped before serving: see {self.data.parent / 'host-server.log'}")
        self.token = (self.data / "host-token").read_text().strip()
        try:
            self._wait_until_answering(started)
        except ServerFailed:
            self.stop(signal.SIGKILL)  # not left running behind the harness
            raise
        return time.monotonic() - started

    def _wait_until_answering(self, started: float) -> None:
        while time.monotonic() - started < START_TIMEOUT:
            if self.process is not None and self.process.poll() is not None:
                raise ServerFailed(f"bin/host-server ended before serving: see {self.data.parent / 'host-server.log'}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    urllib.request.urlopen(f"{self.base}/matches/m-000000000000", timeout=5).close()
            except urllib.error.HTTPError:
                return  # answered (a 404 for a match nobody made): serving
            except OSError:
                time.sleep(0.05)
        raise ServerFailed(f"port {self.port} did not answer in {START_TIMEOUT:.0f} s")

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def usage(self) -> Usage:
        assert self.process is not None
        return usage(self.process.pid)

    @property
    def outbox(self) -> Path:
        return self.data / "outbox"

    def stop(self, how: signal.Signals = signal.SIGTERM) -> None:
        if self.process is None:
            return
        if self.process.stdout is not None:
            self.process.stdout.close()
        self.process.send_signal(how)
        self.process.wait(timeout=60)
        self.process = None

    def host(self, command: str, **fields: Any) -> dict[str, Any]:
        """A host command as `match-host --server` sends it; ServerFailed if it was refused."""
        reply = self.ask(command, **fields)
        if not reply.get("ok"):
            raise ServerFailed(f"host command {command} refused: {reply}")
        return reply

    def ask(self, command: str, **fields: Any) -> dict[str, Any]:
        """A host command's reply, taken or refused (POST /host with the host token)."""
        body = json.dumps({"command": command, **fields}).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        request = urllib.request.Request(f"http://127.0.0.1:{self.host_port}/host", body, headers)
        try:
            with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
                reply: dict[str, Any] = json.loads(response.read())
        except urllib.error.HTTPError as error:
            reply = json.loads(error.read() or b"{}") | {"status": error.code}
        return reply
