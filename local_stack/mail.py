"""Mail on the local stack: an outbox folder for what the service sends (moto's SES also keeps
it), and received mail turned into the event SES delivers through SNS.

    bin/mail-in message.eml          hand a message to the running local stack (bin/local-stack)
    bin/mail-in - < message.eml      the same from stdin

Sent mail lands in the outbox as one `.eml` file per message (`local-outbox/` by default), which
any mail client opens.
"""

from __future__ import annotations

import base64
import json
import sys
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from pathlib import Path
from typing import Any

from game_core.cli.failures import OneLineParser, one_line_errors
from game_core.service.ports import OutgoingMail

LOCAL_DOMAIN = "play.local"
"""The match domain of the local stack: each match takes mail at <match_id>@play.local."""
PASS = "PASS"


@dataclass
class Outbox:
    """Every message the local stack's services send, in order; also written to `folder` (one
    `.eml` file each) when one is set, and handed to `relay` (the host server's SMTP relay)."""

    folder: Path | None = None
    sent: list[OutgoingMail] = field(default_factory=list)
    relay: Callable[[OutgoingMail], None] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def keep(self, mail: OutgoingMail) -> None:
        with self._lock:
            self.sent.append(mail)
            number = len(self.sent)
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
            safe_to = "".join(c if c.isalnum() or c in "@.-_" else "_" for c in mail.to)
            (self.folder / f"{stamp}-{number:05d}-{safe_to}.eml").write_bytes(mail.raw)
        if self.relay is not None:
            self.relay(mail)

    def to(self, address: str) -> list[OutgoingMail]:
        with self._lock:
            return [mail for mail in self.sent if mail.to == address]


def ses_event(
    raw: bytes, recipients: list[str] | None = None, verdicts: dict[str, str] | None = None
) -> dict[str, Any]:
    """The Lambda event SES's SNS action delivers for `raw` (AWS's documented shape): the
    recipients are the message's To and Cc unless given; every verdict PASS unless given."""
    headers = BytesHeaderParser().parsebytes(raw)
    if recipients is None:
        recipients = [address for _name, address in getaddresses(headers.get_all("to", []) + headers.get_all("cc", []))]
    verdicts = {"spam": PASS, "virus": PASS, "spf": PASS, "dkim": PASS, "dmarc": PASS} | (verdicts or {})
    message_id = uuid.uuid4().hex
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    _name, source = getaddresses(headers.get_all("from", []))[0] if headers.get_all("from") else ("", "")
    notification = {
        "notificationType": "Received",
        "receipt": {
            "timestamp": now,
            "processingTimeMillis": 100,
            "recipients": recipients,
            **{f"{check}Verdict": {"status": status} for check, status in verdicts.items()},
            "action": {
                "type": "SNS",
                "topicArn": "arn:aws:sns:us-east-1:123456789012:inbound-mail",
                "encoding": "BASE64",
            },
        },
        "mail": {
            "timestamp": now,
            "source": source,
            "messageId": message_id,
            "destination": recipients,
            "headersTruncated": False,
            "headers": [{"name": name, "value": str(value)} for name, value in headers.items()],
            "commonHeaders": {"from": headers.get_all("from", []), "to": headers.get_all("to", [])},
        },
        # BASE64, as SES's action may be set: a message in an 8-bit charset arrives byte for byte
        "content": base64.b64encode(raw).decode(),
    }
    return {
        "Records": [
            {
                "EventSource": "aws:sns",
                "EventVersion": "1.0",
                "EventSubscriptionArn": "arn:aws:sns:us-east-1:123456789012:inbound-mail:local",
                "Sns": {
                    "Type": "Notification",
                    "MessageId": str(uuid.uuid4()),
                    "TopicArn": "arn:aws:sns:us-east-1:123456789012:inbound-mail",
                    "Subject": "Amazon SES Email Receipt Notification",
                    "Message": json.dumps(notification),
                    "Timestamp": now,
                },
            }
        ]
    }


@one_line_errors("bin/mail-in")
def main(argv: list[str] | None = None) -> int:
    """Hand a message to the running local stack's mail function, as SES would."""
    import boto3

    parser = OneLineParser(prog="bin/mail-in", description=__doc__.splitlines()[0])
    parser.add_argument("message", help="an .eml file, or - for stdin")
    parser.add_argument("--endpoint", default="http://127.0.0.1:5055", help="the local stack (bin/local-stack)")
    args = parser.parse_args(argv)
    raw = sys.stdin.buffer.read() if args.message == "-" else Path(args.message).read_bytes()
    client = boto3.client(
        "lambda",
        endpoint_url=args.endpoint,
        region_name="us-east-1",
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )
    response = client.invoke(FunctionName="EmailInFunction", Payload=json.dumps(ses_event(raw)).encode())
    print(response["Payload"].read().decode() or "{}")
    return 1 if response.get("FunctionError") else 0


if __name__ == "__main__":
    raise SystemExit(main())
