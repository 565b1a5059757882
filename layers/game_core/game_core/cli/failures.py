"""How every command line tool fails: one line on stderr that names the fix, exit code 2, no
traceback (match-host, match-replay, match-schemas, match-asl, bin/host-server, bin/local-stack,
bin/mail-in).

A tool raises `CliError` with the line to print where it knows the fix; what it does not catch
itself (a file that is not there, a port another program holds, AWS without a region) is said
here, once for every tool.
"""

from __future__ import annotations

import argparse
import errno
import functools
import json
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn, Protocol

EXIT = 2
"""Every tool's exit code for an error (argparse's for a usage error, too)."""


class Main(Protocol):
    def __call__(self, argv: list[str] | None = None) -> int: ...


class CliError(Exception):
    """What went wrong and how to put it right, in one line."""


TYPOGRAPHIC_DASHES = "\u2013\u2014\u2212"
"""En dash, em dash, minus: what an editor or a chat makes of a pasted -- (or -)."""
TYPOGRAPHIC_QUOTES = "\u201c\u201d\u201e\u2018\u2019"
"""Curly quotes: what an editor or a chat makes of a pasted " or ', which the shell takes as letters."""


def typographic_hint(words: Sequence[str]) -> str:
    """Why a command pasted from a page that set its dashes or quotes in type was not understood
    ("" when it was not that)."""
    for word in words:
        if word[:1] in TYPOGRAPHIC_DASHES:
            return f"; {word} begins with a typographic dash, not --: type --{word.lstrip(TYPOGRAPHIC_DASHES + '-')}"
        if word[:1] in TYPOGRAPHIC_QUOTES or word[-1:] in TYPOGRAPHIC_QUOTES:
            return f'; {word} has a typographic quote, which the shell keeps as a letter: retype the quotes as plain "'
    return ""


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming --help rather than the usage and the error
    (and what was mistyped, when a pasted command's dashes or quotes came set in type)."""

    words: Sequence[str] = ()

    def parse_known_args(self, args: Iterable[str] | None = None, namespace: Any = None) -> Any:
        self.words = sys.argv[1:] if args is None else list(args)
        return super().parse_known_args(self.words, namespace)

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message}{typographic_hint(self.words)} (see {self.prog} --help)")


def read_text(path: str, what: str) -> str:
    """A file's text, or - for standard input; a CliError naming the file when it cannot be read."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except UnicodeDecodeError:
        raise CliError(f"{path} is not a text file; expected {what}") from None


def read_json(path: str, what: str) -> Any:
    """A JSON file (or - for standard input); a CliError saying where it is not JSON."""
    try:
        return json.loads(read_text(path, what))
    except json.JSONDecodeError as error:
        hint = " (JSON has no comments: remove the // notes)" if "//" in error.doc else ""
        raise CliError(
            f"{path} is not JSON: {error.msg} at line {error.lineno} column {error.colno}{hint}; expected {what}"
        ) from None


def explain(error: BaseException) -> str | None:
    """The one line for an error no tool caught, or None when it is a fault (a traceback is right)."""
    if isinstance(error, CliError):
        return str(error)
    if isinstance(error, FileNotFoundError) and error.filename:
        return f"no such file: {error.filename} (check the path; relative paths start in this folder)"
    if isinstance(error, IsADirectoryError | NotADirectoryError | PermissionError) and error.filename:
        return f"cannot use {error.filename}: {error.strerror}"
    if isinstance(error, OSError) and error.errno == errno.EADDRINUSE:
        return "a port is in use (another server still running?): stop it, or choose others (--port, --host-port, ...)"
    botocore = sys.modules.get("botocore.exceptions")  # loaded if AWS was called, so it can have failed
    if botocore is not None:
        if isinstance(error, botocore.NoRegionError):
            return "no AWS region: use --server (bin/host-server) or --local (bin/local-stack), or set AWS_REGION"
        if isinstance(error, botocore.NoCredentialsError):
            return "no AWS credentials: use --server (bin/host-server) or --local (bin/local-stack), or log in to AWS"
        if isinstance(error, botocore.EndpointConnectionError):
            return f"cannot reach {error.kwargs.get('endpoint_url')}: is it running (bin/local-stack)?"
        if isinstance(error, botocore.ClientError):
            return f"AWS refused: {error}"
    return None


def one_line_errors(prog: str) -> Callable[[Main], Main]:
    """Wraps a tool's main: an error it can explain is one line on stderr and exit code 2."""

    def wrap(main: Main) -> Main:
        @functools.wraps(main)
        def run(argv: list[str] | None = None) -> int:
            try:
                return main(argv)
            except BrokenPipeError:  # the reader stopped reading (| head): nothing is wrong
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no complaint at exit
                return 0
            except Exception as error:
                line = explain(error)
                if line is None:
                    raise
                print(f"{prog}: {line}", file=sys.stderr)
                return EXIT

        return run

    return wrap
