"""moto's SQS on the local stack's virtual clock (`patch_sqs`): its delays and visibility
timeouts pass as the clock is moved, so a webhook retry or a mail's next try an hour away comes
back once a test has advanced the clock an hour (local_stack/aws/webhooks.py, inbound_queue.py)."""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable
from functools import cache

import moto.sqs.models as sqs_models

from local_stack.aws.clock import VirtualClock

SQS_TIME_SEAM = ("unix_time", "unix_time_millis")
"""moto 5.2.1's SQS models read the time through these two names of their module (sent times,
visibility, delays): `patch_sqs` points them at the virtual clock."""
SQS_TIME_DIGEST = "e48bcdf0df5c8397"
"""The first 16 hex digits of the SHA-256 of `Message.delay`'s and `Message.delayed`'s sources in
moto 5.2.1: a retry's delay is measured on `unix_time_millis` there."""


@cache  # moto's source cannot change in a running process
def seam_digest() -> str:
    sources = inspect.getsource(sqs_models.Message.delay) + inspect.getsource(sqs_models.Message.delayed.fget)
    return hashlib.sha256(sources.encode()).hexdigest()[:16]


def patch_sqs(clock: VirtualClock) -> Callable[[], None]:
    """moto's SQS on `clock`; returns the function that restores it."""
    if seam_digest() != SQS_TIME_DIGEST:
        raise RuntimeError("moto's SQS Message.delay changed: re-check local_stack/aws/sqs_clock.py's seam")
    originals = {name: getattr(sqs_models, name) for name in SQS_TIME_SEAM}
    sqs_models.unix_time = lambda *_args: clock.time()  # type: ignore[assignment]
    sqs_models.unix_time_millis = lambda *_args: clock.time() * 1000  # type: ignore[assignment]

    def restore() -> None:
        for name, original in originals.items():
            setattr(sqs_models, name, original)

    return restore
