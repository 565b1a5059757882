"""Keep a local stack running for the host CLI (`match-host --local ...`) and other clients.

    bin/local-stack            serves the stack on http://127.0.0.1:5055 until Ctrl-C
    bin/mail-in message.eml    hands it a message, as SES would (sent mail: local-outbox/*.eml)

The stack runs in this process (moto, the real ASL, the real handlers); a moto server in the same
process exposes it over HTTP, so `match-host --local` and boto3 clients with that endpoint reach
the same tables, topics, functions and state machines.
"""

from __future__ import annotations

import socket
import time
from pathlib import Path

from moto.server import ThreadedMotoServer

from game_core.cli.failures import CliError, OneLineParser, one_line_errors
from local_stack.aws.mail import LOCAL_DOMAIN
from local_stack.aws.stack import LocalStack
from local_stack.aws.webhooks import DeliveryPump


def check_port_free(port: int) -> None:
    """moto's server would hang on a port in use (its thread exits and never says it is ready)."""
    try:
        with socket.create_server(("127.0.0.1", port)):
            pass
    except OSError:
        raise CliError(
            f"port {port} is in use (a local stack already running?): stop it, or choose another --port"
        ) from None


@one_line_errors("bin/local-stack")
def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="bin/local-stack", description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=5055)
    parser.add_argument("--outbox", type=Path, default=Path("local-outbox"), help="where sent mail is kept (.eml)")
    args = parser.parse_args(argv)
    check_port_free(args.port)
    with LocalStack(log_level="INFO", outbox=args.outbox) as stack:
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=args.port)
        server.start()
        deliveries = DeliveryPump(stack.webhooks)  # webhooks out, as Lambda's SQS event source would
        deliveries.start()
        print(f"local stack on http://127.0.0.1:{args.port}", flush=True)
        print(f"  state machines: {', '.join(stack.state_machines)}", flush=True)
        print(f"  mail: matches take mail at <match_id>@{LOCAL_DOMAIN} (bin/mail-in message.eml);", flush=True)
        print(f"        what they send lands in {args.outbox}/", flush=True)
        print("  try: bin/match-host --local create events/host_create.json", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
        finally:
            deliveries.stop()
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
