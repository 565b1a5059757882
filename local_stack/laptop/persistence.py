"""The host server's data folder (local_stack/laptop/server.py): the table on disk, and who holds it.

- The table itself: local_stack/laptop/table_file.py (a snapshot and a journal of the changes since).
- `QueueFile`: the webhook deliveries queued or waiting for a retry, and the dead letters
  (local_stack/aws/webhooks.py's `KeptQueue`), written the same way after every invocation and every
  batch delivered, and queued again on start: a receiver that was down while the server was
  stopped still gets each notice, under its webhook-id. A file that is not such a queue is
  refused (the server does not start), never dropped.
  It is one `KeptFile`: a model kept whole the same way, as the mail queue is too
  (local_stack/laptop/mail_queue.py).
- `DataFolder`: one server at a time. An OS lock (flock) on `server.lock`, held for the process's
  life and released by the OS when the process dies however it dies; who holds it (pid, ports,
  when last seen alive) in `server.json` beside it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
import threading
from pathlib import Path
from typing import IO, Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from game_core.cli.failures import CliError
from local_stack.aws.lambda_adapter import MOTO_LOCK
from local_stack.aws.webhooks import KeptQueue, LocalWebhooks

Kept = TypeVar("Kept", bound=BaseModel)


TEMPORARY = ".tmp"
"""How a temporary file of `write_durably` ends (a crash can leave one: the next holder removes it)."""


def write_durably(path: Path, data: bytes) -> None:
    """Replace `path` with `data` so that a crash at any moment leaves the old file or the new one,
    whole: a temporary file of this write's own (two writers never share one), flushed to the disk
    before it is renamed over `path`, then the folder flushed so the rename itself is on the disk."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMPORARY)
    try:
        try:
            rest = memoryview(data)
            while rest:  # a write may take less than all it is given
                rest = rest[os.write(handle, rest) :]
            os.fsync(handle)
        finally:
            os.close(handle)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def remove_leftovers(path: Path) -> None:
    """Remove the temporary files a crashed `write_durably` of `path` left."""
    for left in path.parent.glob(f".{path.name}.*{TEMPORARY}"):
        left.unlink()


class KeptFile(Generic[Kept]):
    """One model (`kind`) kept whole in `path`: `read` at start (None when there is no file; a
    file that is not such a model stops the start, naming it, before anything is touched), then
    `write` after every change (replaced whole and durably, and only if it changed). `what`
    names it to the host ("the webhook queue"), `lost` what a start without it would lose."""

    def __init__(self, path: Path, kind: type[Kept], what: str, lost: str) -> None:
        self.path = path
        self.kind = kind
        self.what, self.lost = what, lost
        self._written = ""

    def read(self) -> Kept | None:
        remove_leftovers(self.path)
        if not self.path.exists():
            return None
        try:
            return self.kind.model_validate_json(self.path.read_bytes())
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise CliError(
                f"{self.path} is not {self.what} this server keeps ({where + ': ' if where else ''}"
                f"{first['msg']}): {self.lost} would be lost; put back a good copy, or move it aside "
                "to start without them"
            ) from None

    def write(self, kept: Kept) -> None:
        text = kept.model_dump_json()
        if text == self._written:
            return
        write_durably(self.path, text.encode())
        self._written = text


class QueueFile(KeptFile[KeptQueue]):
    """The webhook queues of the host server kept in `path`: `read` before the stack starts (a
    file that is not a queue stops the start before anything is touched), `LocalWebhooks.put_back`
    what it read, then `save` after every invocation and every batch."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, KeptQueue, "the webhook queue", "the deliveries in it")
        self._writing = threading.Lock()
        self._taken = self._written_number = 0
        """How many snapshots of the queues were taken; the number of the last one written."""

    def read(self) -> KeptQueue:
        """What the file holds (nothing queued if there is none); a CliError naming the file and
        what is wrong in it when it is not a whole queue (cut short, edited, another file)."""
        return super().read() or KeptQueue(waiting=(), dead_letters=())

    def save(self, webhooks: LocalWebhooks) -> None:
        """Write what the queues hold (`kept()`: a batch under way as if it had not begun), if it
        changed. Read under moto's lock, written after it (a write waits for the disk, and every
        AWS call would wait with it); a snapshot older than one already written is not written."""
        with MOTO_LOCK:
            kept = webhooks.kept()
            self._taken += 1
            number = self._taken
        with self._writing:
            if number > self._written_number:
                self.write(kept)
                self._written_number = number


class DataFolderInUse(CliError):
    """Another process holds the data folder (bin/host-server says so in one line, and exits 2)."""

    def __init__(self, folder: Path, holder: dict[str, Any]) -> None:
        shown = [f"{name.replace('_', ' ')} {holder[name]}" for name in DataFolder.SHOWN if name in holder]
        super().__init__(
            f"{folder} is in use by another host server ({', '.join(shown) or 'pid unknown: it is starting'}): "
            "stop that one first, or give this one another --data folder"
        )
        self.holder = holder


class DataFolder:
    """The host server's folder, held by one process at a time.

        folder = DataFolder(Path("local-data"))
        folder.hold()                        # DataFolderInUse if another process holds it
        folder.describe(players="0.0.0.0:8080", seen="...")
        folder.release()                     # or the process ends: the OS releases the lock

    `describe` keeps what the holder says of itself (and `hold` the pid) in `server.json`: what a
    refused server shows, and what the next holder reads as `previous`."""

    LOCK = "server.lock"
    ABOUT = "server.json"
    SHOWN = ("pid", "players", "host_commands", "mail")
    """What a refused server is told of the holder."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.previous: dict[str, Any] = {}
        """What the last holder said of itself (empty if none ever did)."""
        self._about: dict[str, Any] = {}
        self._lock: IO[bytes] | None = None

    def _read_about(self) -> dict[str, Any]:
        try:
            about = json.loads((self.path / self.ABOUT).read_bytes())
        except (FileNotFoundError, ValueError):  # none yet, or from a hand edit: nothing to show
            return {}
        return about if isinstance(about, dict) else {}

    def hold(self) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        lock = open(self.path / self.LOCK, "ab")  # noqa: SIM115 - held open for the process's life
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            raise DataFolderInUse(self.path, self._read_about()) from None
        self._lock = lock
        self.previous = self._read_about()
        self._about = {}
        self.describe(pid=os.getpid())

    def describe(self, **about: Any) -> None:
        """Add to what the holder says of itself."""
        self._about |= about
        write_durably(self.path / self.ABOUT, json.dumps(self._about).encode())

    def release(self) -> None:
        if self._lock is not None:
            self._lock.close()  # closing the last descriptor releases the flock
            self._lock = None
