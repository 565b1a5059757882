"""An SMTP relay in a process of its own, for the tests of the host server's mail queue
(local_stack/laptop/mail_queue.py): an aiosmtpd server on 127.0.0.1 that keeps each message it takes as
a file in a folder, and answers as the test starts it. Stopping the process is the relay being
down (its port refuses connections); starting it again on the same port with other answers is
the relay changing its mind.

    relay = RelayProcess(port, folder)
    relay.start(mail_from="421 4.3.2 Service shutting down")   # every MAIL FROM answered so
    relay.start(data="451 4.3.0 Try again later")              # every DATA answered so
    relay.start(refuse="bo@example.org")                       # 550 5.1.1 for that recipient
    relay.start(busy="cy@example.net")                         # 450 4.2.1 for that one
    relay.start(drop=True)                                     # the connection dropped at DATA
    relay.start()                                              # takes everything
    relay.stop()

Run as a script it is the server: `python relay_process.py PORT FOLDER [--mail-from ANSWER]
[--data ANSWER] [--refuse ADDRESS] [--busy ADDRESS] [--drop]`; it prints "ready" once it listens.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

READY = "ready"
START_SECONDS = 60
"""Real seconds a start may take at most (a loaded machine is slow)."""


class Answers:
    """aiosmtpd's handler: each step answered as asked, each message taken kept in `folder`."""

    def __init__(self, folder: Path, mail_from: str, data: str, refuse: str, busy: str, drop: bool) -> None:
        self.folder, self.mail_from, self.data, self.drop = folder, mail_from, data, drop
        self.refuse, self.busy = refuse.lower(), busy.lower()

    async def handle_MAIL(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:  # noqa: N802
        if self.mail_from:
            return self.mail_from
        envelope.mail_from = address
        return "250 OK"

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:  # noqa: N802
        if address.lower() == self.refuse:
            return f"550 5.1.1 <{address}>: no such user here"
        if address.lower() == self.busy:
            return f"450 4.2.1 <{address}>: mailbox busy, try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        if self.drop:
            server.transport.close()
            return "421 4.4.2 dropped"  # never read: the connection is gone
        if self.data:
            return self.data
        to = ",".join(envelope.rcpt_tos)
        (self.folder / f"{uuid.uuid4().hex}.eml").write_bytes(f"X-Envelope-To: {to}\r\n".encode() + envelope.content)
        return "250 OK"


class RelayProcess:
    """The relay's process on `port`, keeping what it takes in `folder`; one at a time."""

    def __init__(self, port: int, folder: Path) -> None:
        self.port, self.folder = port, folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self._process: subprocess.Popen[str] | None = None

    def start(
        self, *, mail_from: str = "", data: str = "", refuse: str = "", busy: str = "", drop: bool = False
    ) -> None:
        self.stop()
        argv = [sys.executable, __file__, str(self.port), str(self.folder), "--mail-from", mail_from, "--data", data]
        argv += ["--refuse", refuse, "--busy", busy, *(["--drop"] if drop else [])]
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
        self._process = process
        said: list[str] = []
        reading = threading.Thread(target=lambda: said.append(process.stdout.readline() if process.stdout else ""))
        reading.start()
        reading.join(START_SECONDS)
        if said != [f"{READY}\n"]:
            self.stop()
            raise RuntimeError(f"the relay process did not start: {said}")

    def stop(self) -> None:
        if self._process is not None:
            self._process.terminate()
            self._process.wait(START_SECONDS)
            self._process = None

    def taken(self) -> list[bytes]:
        """Every message taken so far (each with an X-Envelope-To header naming its recipients)."""
        return [path.read_bytes() for path in sorted(self.folder.glob("*.eml"))]


def main() -> None:
    from aiosmtpd.controller import Controller

    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--mail-from", default="")
    parser.add_argument("--data", default="")
    parser.add_argument("--refuse", default="")
    parser.add_argument("--busy", default="")
    parser.add_argument("--drop", action="store_true")
    args = parser.parse_args()
    answers = Answers(args.folder, args.mail_from, args.data, args.refuse, args.busy, args.drop)
    controller = Controller(answers, hostname="127.0.0.1", port=args.port)
    controller.start()
    print(READY, flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
