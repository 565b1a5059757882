"""A small IMAP4rev1 server over TLS standing for a mail provider's, for the tests of the host's
own mailbox (local_stack/laptop/mailbox.py): the commands an IMAP client reading a mailbox sends
(RFC 3501: CAPABILITY, LOGIN, LIST, CREATE, SELECT, UID SEARCH/FETCH/STORE/COPY/EXPUNGE, NOOP,
LOGOUT; RFC 6851 MOVE; RFC 2177 IDLE), each folder's messages in memory with their UIDs and flags.

`deliver` is the provider delivering a message (an IDLE client is told at once); `commands`
counts what clients asked, so a test counts rather than times. `idle` and `move` choose whether
the server offers those extensions.
"""

from __future__ import annotations

import re
import select
import socket
import ssl
import threading
from collections import Counter
from dataclasses import dataclass, field

LINE_LIMIT = 65536
_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|(\(|\)|[^\s()]+)')


@dataclass
class Stored:
    uid: int
    raw: bytes
    flags: set[str] = field(default_factory=set)


@dataclass
class Folder:
    validity: int
    messages: list[Stored] = field(default_factory=list)
    next_uid: int = 1


class ImapResponder:
    """Serves on 127.0.0.1 (`port`), TLS from the start with `tls`, one login (`user`, `password`)."""

    def __init__(self, tls: ssl.SSLContext, user: str, password: str, *, idle: bool = True, move: bool = True) -> None:
        self.tls, self.user, self.password = tls, user, password
        self.capabilities = ["IMAP4rev1", "UIDPLUS", *(["IDLE"] if idle else []), *(["MOVE"] if move else [])]
        self.folders: dict[str, Folder] = {"INBOX": Folder(validity=7)}
        self.commands: Counter[str] = Counter()
        self.lock = threading.Lock()
        self.arrived = threading.Condition(self.lock)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self._closing = False
        threading.Thread(target=self._accept, name="imap-responder", daemon=True).start()

    def deliver(self, raw: bytes, folder: str = "INBOX") -> int:
        """The provider files a message in `folder`: its UID."""
        with self.arrived:
            box = self.folders.setdefault(folder, Folder(validity=7))
            box.messages.append(Stored(box.next_uid, raw))
            box.next_uid += 1
            self.arrived.notify_all()
            return box.next_uid - 1

    def flags(self, uid: int, folder: str = "INBOX") -> set[str] | None:
        """The flags of the message `uid` in `folder`; None when it is not there."""
        with self.lock:
            return next((set(m.flags) for m in self.folders[folder].messages if m.uid == uid), None)

    def recreate(self, folder: str = "INBOX") -> None:
        """The folder made anew (a new UIDVALIDITY), its messages given new UIDs from 1."""
        with self.lock:
            old = self.folders[folder]
            self.folders[folder] = Folder(validity=old.validity + 1)
            for message in old.messages:
                self.folders[folder].messages.append(Stored(self.folders[folder].next_uid, message.raw))
                self.folders[folder].next_uid += 1

    def stop(self) -> None:
        self._closing = True
        self.listener.close()

    def _accept(self) -> None:
        while not self._closing:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        try:
            with self.tls.wrap_socket(connection, server_side=True) as tls:
                Session(self, tls).run()
        except (OSError, ConnectionError, ValueError):
            pass  # the client went away


class Session:
    """One client's connection: read a command, answer it, until LOGOUT."""

    def __init__(self, server: ImapResponder, sock: ssl.SSLSocket) -> None:
        self.server, self.sock = server, sock
        self.buffer = bytearray()
        self.logged_in = False
        self.folder: Folder | None = None
        self.known = 0
        """How many messages of the folder this client was told of: IDLE tells it of any more."""

    def run(self) -> None:
        self.send("* OK IMAP4rev1 responder ready")
        while True:
            line = self.read_line()
            if line is None:
                return
            tag, _, rest = line.partition(" ")
            name, _, arguments = rest.partition(" ")
            name = name.upper()
            if name == "UID":
                name, _, arguments = arguments.partition(" ")
                name = f"UID {name.upper()}"
            with self.server.lock:
                self.server.commands[name] += 1
            if name == "LOGOUT":
                self.send("* BYE logging out")
                self.send(f"{tag} OK LOGOUT completed")
                return
            self.send(self.answer(tag, name, arguments))

    def answer(self, tag: str, name: str, arguments: str) -> str:
        if name == "CAPABILITY":
            return f"* CAPABILITY {' '.join(self.server.capabilities)}\r\n{tag} OK CAPABILITY completed"
        if name == "NOOP":
            return f"{tag} OK NOOP completed"
        if name == "LOGIN":
            user, password = tokens(arguments)[:2]
            self.logged_in = (user, password) == (self.server.user, self.server.password)
            return f"{tag} OK LOGIN completed" if self.logged_in else f"{tag} NO [AUTHENTICATIONFAILED] wrong login"
        if not self.logged_in:
            return f"{tag} NO log in first"
        if name == "LIST":
            return self.list(tag, tokens(arguments)[1])
        if name == "CREATE":
            with self.server.lock:
                self.server.folders.setdefault(tokens(arguments)[0], Folder(validity=1))
            return f"{tag} OK CREATE completed"
        if name in ("SELECT", "EXAMINE"):
            return self.select(tag, tokens(arguments)[0])
        if self.folder is None:
            return f"{tag} BAD select a folder first"
        if name == "IDLE" and "IDLE" in self.server.capabilities:
            return self.idle(tag)
        if name == "UID SEARCH":
            return self.search(tag, arguments)
        if name == "UID FETCH":
            return self.fetch(tag, arguments)
        if name == "UID STORE":
            return self.store(tag, arguments)
        if name in ("UID COPY", "UID MOVE") and (name == "UID COPY" or "MOVE" in self.server.capabilities):
            return self.copy(tag, arguments, move=name == "UID MOVE")
        if name == "UID EXPUNGE":
            return self.expunge(tag, set(self.uids(tokens(arguments)[0])), deleted_only=True)
        return f"{tag} BAD {name} is not served here"

    # -- commands ----------------------------------------------------------------------------

    def list(self, tag: str, pattern: str) -> str:
        """The folders named `pattern` (no wildcards served)."""
        with self.server.lock:
            found = [f'* LIST () "/" "{name}"' for name in self.server.folders if name == pattern]
        return "\r\n".join([*found, f"{tag} OK LIST completed"])

    def select(self, tag: str, name: str) -> str:
        with self.server.lock:
            self.folder = self.server.folders.get(name)
            if self.folder is None:
                return f"{tag} NO no folder {name}"
            self.known = len(self.folder.messages)
            return (
                f"* {len(self.folder.messages)} EXISTS\r\n* 0 RECENT\r\n* FLAGS (\\Seen \\Deleted)\r\n"
                f"* OK [UIDVALIDITY {self.folder.validity}] UIDs valid\r\n"
                f"* OK [UIDNEXT {self.folder.next_uid}] next UID\r\n{tag} OK [READ-WRITE] SELECT completed"
            )

    def search(self, tag: str, arguments: str) -> str:
        words = tokens(arguments)
        if [word.upper() for word in words[:1]] != ["UID"]:
            return f"{tag} BAD only UID <set> is searched here"
        found = " ".join(str(uid) for uid in self.uids(words[1]))
        return f"* SEARCH {found}".rstrip() + f"\r\n{tag} OK SEARCH completed"

    def fetch(self, tag: str, arguments: str) -> str:
        message_set, _, items = arguments.partition(" ")
        wanted = items.upper()
        parts: list[bytes] = []
        with self.server.lock:
            assert self.folder is not None
            for number, message in enumerate(self.folder.messages, start=1):
                if message.uid not in self.uids(message_set):
                    continue
                if "BODY.PEEK[HEADER]" in wanted:
                    name, body = "BODY[HEADER]", message.raw.split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n"
                else:
                    name, body = "BODY[]", message.raw
                size = f" RFC822.SIZE {len(message.raw)}" if "RFC822.SIZE" in wanted else ""
                head = f"* {number} FETCH (UID {message.uid}{size} {name} {{{len(body)}}}\r\n".encode()
                parts.append(head + body + b")\r\n")
        self.sock.sendall(b"".join(parts))
        return f"{tag} OK FETCH completed"

    def store(self, tag: str, arguments: str) -> str:
        message_set, how, flags = tokens(arguments)[0], tokens(arguments)[1].upper(), tokens(arguments)[2:]
        flags = [flag for flag in flags if flag not in "()"]
        lines = []
        with self.server.lock:
            assert self.folder is not None
            for number, message in enumerate(self.folder.messages, start=1):
                if message.uid in self.uids(message_set):
                    message.flags = (message.flags | set(flags)) if how.startswith("+") else message.flags - set(flags)
                    lines.append(f"* {number} FETCH (UID {message.uid} FLAGS ({' '.join(sorted(message.flags))}))")
        return "\r\n".join([*lines, f"{tag} OK STORE completed"])

    def copy(self, tag: str, arguments: str, move: bool) -> str:
        message_set, destination = tokens(arguments)[:2]
        with self.server.lock:
            assert self.folder is not None
            uids = set(self.uids(message_set))
            target = self.server.folders.get(destination)
            if target is None:
                return f"{tag} NO [TRYCREATE] no folder {destination}"
            for message in self.folder.messages:
                if message.uid in uids:
                    target.messages.append(Stored(target.next_uid, message.raw, set(message.flags)))
                    target.next_uid += 1
        return self.expunge(tag, uids, deleted_only=False) if move else f"{tag} OK COPY completed"

    def expunge(self, tag: str, uids: set[int], deleted_only: bool) -> str:
        """Remove those of `uids` (only those flagged \\Deleted, for EXPUNGE itself)."""
        lines = []
        with self.server.lock:
            assert self.folder is not None
            for number in range(len(self.folder.messages), 0, -1):
                message = self.folder.messages[number - 1]
                if message.uid in uids and ("\\Deleted" in message.flags or not deleted_only):
                    del self.folder.messages[number - 1]
                    lines.append(f"* {number} EXPUNGE")
        return "\r\n".join([*lines, f"{tag} OK EXPUNGE completed"])

    def idle(self, tag: str) -> str:
        """Until DONE: each message that arrives is told as EXISTS."""
        folder = self.folder
        assert folder is not None
        self.send("+ idling")
        told = self.known
        while True:
            with self.server.arrived:
                if len(folder.messages) <= told:
                    self.server.arrived.wait(timeout=0.05)
                count = len(folder.messages)
            if count > told:
                self.send(f"* {count} EXISTS")
                told = self.known = count
            if self.line_waiting():
                line = self.read_line()
                return f"{tag} OK IDLE terminated" if line is not None and line.upper() == "DONE" else f"{tag} BAD"

    # -- the wire ----------------------------------------------------------------------------

    def uids(self, message_set: str) -> list[int]:
        """The UIDs of the selected folder's messages in an IMAP set ("3", "2:5", "4:*", "1,3")."""
        assert self.folder is not None
        present = [message.uid for message in self.folder.messages]
        highest = max(present, default=0)
        chosen = set()
        for piece in message_set.split(","):
            low, _, high = piece.partition(":")
            start = highest if low == "*" else int(low)
            end = start if not high else (highest if high == "*" else int(high))
            start, end = min(start, end), max(start, end)
            chosen |= {uid for uid in present if start <= uid <= end}
        return sorted(chosen)

    def send(self, text: str | bytes) -> None:
        data = text if isinstance(text, bytes) else text.encode()
        self.sock.sendall(data + b"\r\n")

    def line_waiting(self) -> bool:
        if b"\r\n" in self.buffer or self.sock.pending():
            return True
        return bool(select.select([self.sock], [], [], 0)[0])

    def read_line(self) -> str | None:
        """One command line, its literals ({n}) read in (each after a "+" to go on)."""
        line = bytearray()
        while True:
            while b"\r\n" not in self.buffer:
                chunk = self.sock.recv(4096)
                if not chunk:
                    return None
                self.buffer += chunk
                if len(self.buffer) > LINE_LIMIT:
                    return None
            piece, _, rest = bytes(self.buffer).partition(b"\r\n")
            self.buffer = bytearray(rest)
            literal = re.search(rb"\{(\d+)\+?\}$", piece)
            if literal is None:
                return (line + piece).decode("utf-8", "replace")
            self.send("+ go on")
            size = int(literal.group(1))
            while len(self.buffer) < size:
                chunk = self.sock.recv(4096)
                if not chunk:
                    return None
                self.buffer += chunk
            quoted = bytes(self.buffer[:size]).replace(b"\\", b"\\\\").replace(b'"', b'\\"')
            line += piece[: literal.start()] + b'"' + quoted + b'"'
            self.buffer = self.buffer[size:]


def tokens(arguments: str) -> list[str]:
    """IMAP's atoms, parentheses and quoted strings (unquoted) in order."""
    return [atom if atom else re.sub(r"\\(.)", r"\1", quoted) for quoted, atom in _TOKEN.findall(arguments)]
