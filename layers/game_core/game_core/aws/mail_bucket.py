"""Mail SES stored in the inbound bucket (the receipt rule's S3 action), read for its `Receipt`.

One GetObject reads a message: a range of at most `MAX_BYTES` + 1 bytes, whose Content-Range
gives the whole object's size. A message within `MAX_BYTES` is read whole; of a larger one only
its head is kept (the headers name whom to answer that it is too large). An object no longer in
the bucket (the lifecycle rule expired it, or someone deleted it) leaves the receipt without
content: there is nothing to read, and a retry would find nothing either. Every other failure of
S3 raises, so the mail is tried again (functions/email_in).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from functools import cache
from typing import Any

from botocore.exceptions import ClientError

from game_core.aws.wiring import Clients, LazyClient
from game_core.mail.inbound import MAX_BYTES
from game_core.mail.ses import Receipt

logger = logging.getLogger(__name__)

HEAD_BYTES = 64 * 1024
"""What is kept of a message over `MAX_BYTES`: its headers, and some."""
GONE = ("NoSuchKey", "NoSuchBucket")
"""S3's codes for an object that is not there (the function may list the bucket, so a missing
key is NoSuchKey rather than AccessDenied)."""


class MailBucket:
    def __init__(self, client: Any) -> None:
        self.client = client

    def read(self, receipt: Receipt) -> Receipt:
        """The receipt with its stored message read (`content` and `size`); unchanged when the
        notification carried the message, or when the stored object is gone."""
        stored = receipt.stored
        if stored is None or receipt.content is not None:
            return receipt
        try:
            got = self.client.get_object(Bucket=stored.bucket, Key=stored.key, Range=f"bytes=0-{MAX_BYTES}")
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "")
            if code == "InvalidRange":  # an empty object: no range of it exists
                return replace(receipt, content=b"", size=0)
            if code in GONE:
                logger.error(
                    "stored mail is gone (expired or deleted): nothing to read",
                    extra={"ses_message_id": receipt.ses_message_id, "bucket": stored.bucket, "key": stored.key},
                )
                return receipt
            raise
        with got["Body"] as body:
            raw: bytes = body.read()
        size = _whole_size(got.get("ContentRange", ""), len(raw))
        return replace(receipt, content=raw if size <= MAX_BYTES else raw[:HEAD_BYTES], size=size)


def _whole_size(content_range: str, read: int) -> int:
    """The object's size from a Content-Range "bytes 0-99/100" (what was read, without one)."""
    total = content_range.rpartition("/")[2]
    return int(total) if total.isdigit() else read


@cache
def mail_bucket() -> MailBucket:
    """The function's reader, its S3 client made on first use (`mail_bucket.cache_clear()` drops it)."""
    return MailBucket(LazyClient(Clients(), "s3"))
