"""The whole stack on one machine: moto as AWS, the real ASL on moto's Step Functions
interpreter, the real handlers invoked in-process.

    with LocalStack(clock=VirtualClock()) as stack:
        created = stack.host({"command": "create", "match": {...}})
        stack.submit(match_id, player, secret, {"phase": ..., "kind": ..., "submission": ...})
        stack.advance(3600)      # the deadline passes: the waiting state machine times out

With a `VirtualClock` (local_stack/aws/clock.py), the state machines' waits and the handlers' `now`
read one clock that moves only when `advance` moves it; `settle` waits (in real time) until every
running execution is parked in a wait, so what a test sees never depends on the machine's speed.
Without one, everything runs on the wall clock (bin/local-stack).

Resources are read from template.yaml (functions), and each game's state machine is what
`match-asl` writes from the registry (the committed statemachines/ are that, checked by
tests/test_static_checks.py; so a game just registered runs too), so the local stack is the
deployed one minus API Gateway, whose event the `submit` helper builds exactly
as an HTTP API (payload 2.0) would (local_stack/aws/api_events.py; local_stack/laptop/http_api.py serves every
route of the template with it).
"""

from __future__ import annotations

import io
import json
import os
import time
import uuid
import zipfile
from contextlib import nullcontext, suppress
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import boto3
from moto import mock_aws

from game_core.cli import asl
from game_core.games import registry
from game_core.service.ports import Ports
from local_stack.aws import executions, moto_caches  # noqa: F401 - moto_caches: for its effects
from local_stack.aws.api_events import http_api_event
from local_stack.aws.clock import VirtualClock, patch_moto
from local_stack.aws.inbound_queue import LocalMailIn
from local_stack.aws.lambda_adapter import InProcessLambdas, install, load_handler
from local_stack.aws.mail import LOCAL_DOMAIN, Outbox
from local_stack.aws.template import create_match_table, template_functions
from local_stack.aws.webhooks import LocalWebhooks

REGION = "us-east-1"
STACK_NAME = "local"
ROLE = "arn:aws:iam::123456789012:role/match-service"
SETTLE_SECONDS = 60.0
"""The longest `settle` waits, in real time, for the state machines to park (generous: a loaded
machine is slow, and a settled one returns at once)."""
LOOK_SECONDS = 0.02
"""The longest `settle` goes without looking again, in real time, if the clock says nothing changed."""


@cache
def _client(service: str) -> Any:
    """The stacks' own client of a service, one a process: moto serves whichever stack is running,
    and nothing hooks these (faults and meters hook the handlers' clients), so no stack needs its
    own (making them was a tenth of what starting a stack and creating a match cost)."""
    return boto3.client(service, region_name=REGION)


def _zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("app.py", "# runs in-process: see local_stack.aws.lambda_adapter\n")
    return buffer.getvalue()


class LocalStack:
    def __init__(
        self,
        log_level: str = "WARNING",
        games: tuple[str, ...] | None = None,
        clock: VirtualClock | None = None,
        outbox: Path | None = None,
        mail_checks: str = "",
    ) -> None:
        self.log_level = log_level
        self.clock = clock
        self.outbox = Outbox(outbox)
        """Every message the services send (moto's SES keeps it too), written to `outbox` if given."""
        self.mail_checks = mail_checks
        """The SES verdicts received mail must PASS (MAIL_REQUIRED_CHECKS); none by default, since
        local mail is handed in by the host."""
        """The clock the state machines and handlers read; None: the wall clock."""
        self.games = registry.AVAILABLE if games is None else games
        """The games whose state machines are created (each takes moto a while to parse)."""
        self.lambdas = InProcessLambdas()
        self.state_machines: dict[str, str] = {}
        self._mock = mock_aws(config={"stepfunctions": {"execute_state_machine": True}})
        self._restore = lambda: None
        self._unbound_inboxes: list[Inbox] = []
        self._ports: Ports | None = None

    # -- lifecycle -------------------------------------------------------------------------

    def __enter__(self) -> LocalStack:
        os.environ.update(
            {
                "TZ": "UTC",  # moto compares TimestampPath against local time
                "AWS_DEFAULT_REGION": REGION,
                "AWS_ACCESS_KEY_ID": "local",
                "AWS_SECRET_ACCESS_KEY": "local",
                "POWERTOOLS_LOG_LEVEL": self.log_level,
                "POWERTOOLS_METRICS_NAMESPACE": "MatchService",
            }
        )
        time.tzset()
        self._mock.start()
        self._restore = install(self.lambdas)
        if self.clock is not None:
            restore_lambdas, restore_waits = self._restore, patch_moto(self.clock)

            def restore() -> None:
                restore_waits()
                restore_lambdas()

            self._restore = restore
        self._create_resources()
        self.cold_start()
        for name, (code_dir, handler) in template_functions().items():
            self.lambdas.register(name, load_handler(code_dir, handler, self.ports))
        return self

    def __exit__(self, *exc: object) -> None:
        """Settled, then what waits parked for good: a step under way would outlive the mock (moto's is per process)."""
        try:
            if self.clock is not None:
                with suppress(TimeoutError) if exc and exc[0] is not None else nullcontext():
                    self.settle()  # one that cannot settle says so, unless already failing
        finally:
            self.lambdas.close()  # each step under way ends first (on the wall clock, none settles)
            if self.clock is not None:
                self.clock.close()
            self.webhooks.close()
            self._restore()
            self._mock.stop()

    def ports(self) -> Ports:
        """The ports every handler of the stack serves with, as a warm Lambda container's: built
        from the environment the stack set, on the stack's clock, each message sent kept in the
        outbox too. A test acting as the service (or reading its table) uses these."""
        if self._ports is None:
            raise RuntimeError("the stack has not started: use it as `with LocalStack() as stack:`")
        return self._ports

    def cold_start(self) -> None:
        """New ports for every handler, as new containers would build: from the environment as it
        is now (a setting changed since), with new clients (nothing that hooked the old ones)."""
        from game_core.aws.wiring import build_ports

        self._ports = build_ports(os.environ, self.clock, self.outbox.keep)

    def port_clients(self) -> list[Any]:
        """The handlers' boto3 clients (the ports' adapters'), each once: what faults and meters hook."""
        ports = self.ports()
        clients = (ports.store.client, ports.notifier.client, ports.workflow.client, ports.mailer.client)
        return list({id(c): c for c in clients}.values())

    def client(self, service: str) -> Any:
        """One client per service (boto3 clients are thread-safe, and slow to make)."""
        return _client(service)

    def _create_resources(self) -> None:
        create_match_table(self.client("dynamodb"))
        sns = self.client("sns")
        self.public_topic = sns.create_topic(Name="public-notices")["TopicArn"]
        self.private_topic = sns.create_topic(Name="private-notices")["TopicArn"]
        self.host_topic = sns.create_topic(Name="host-alerts")["TopicArn"]
        self.client("sesv2").create_email_identity(EmailIdentity=LOCAL_DOMAIN)
        self.mail_in = LocalMailIn(self.client("s3"), sns, self.client("sqs"), self.lambdas.invoke)
        self.client("iam").create_role(RoleName="match-service", AssumeRolePolicyDocument="{}")
        lambdas = self.client("lambda")
        functions = {}
        for name in template_functions():
            functions[name] = lambdas.create_function(
                FunctionName=name,
                Runtime="python3.11",
                Role=ROLE,
                Handler="app.handler",
                Code={"ZipFile": _zip()},
            )["FunctionArn"]
        sfn = self.client("stepfunctions")
        for name in (*self.games, asl.SEASON):
            definition, function = asl.machine(name)
            definition = definition.replace(f"${{{function}Arn}}", functions[function])
            self.state_machines[name] = sfn.create_state_machine(
                name=f"{STACK_NAME}-{name}", definition=definition, roleArn=ROLE
            )["stateMachineArn"]
        os.environ.update(
            {
                "TABLE_NAME": "matches",
                "PUBLIC_TOPIC_ARN": self.public_topic,
                "PRIVATE_TOPIC_ARN": self.private_topic,
                "HOST_TOPIC_ARN": self.host_topic,
                "STATE_MACHINE_ARN_PREFIX": f"arn:aws:states:{REGION}:123456789012:stateMachine:{STACK_NAME}-",
                "MAIL_DOMAIN": LOCAL_DOMAIN,
                "MAIL_REQUIRED_CHECKS": self.mail_checks,
            }
        )
        self.webhooks = LocalWebhooks(self.client("sqs"), self.lambdas.invoke, self.clock)
        os.environ.update(self.webhooks.environment | self.mail_in.environment)

    # -- what a user of the stack does -----------------------------------------------------

    def invoke(self, function: str, event: dict[str, Any]) -> Any:
        """`function`'s reply to `event`, as API Gateway or the console invokes it: its handler run in
        this process on the event as JSON, called directly as the webhook queue's event source calls
        it (through moto's Invoke, botocore's and moto's handling of the request and its reply were a
        quarter of a page view's CPU on the host server). A function error raises RuntimeError."""
        payload, errored, _ = self.lambdas.invoke(function, json.dumps(event))
        reply = json.loads(payload)
        if errored:
            raise RuntimeError(f"{function} failed: {reply.get('errorType')}: {reply.get('errorMessage')}")
        return reply

    def receive_mail(
        self, raw: bytes, recipients: list[str] | None = None, verdicts: dict[str, str] | None = None
    ) -> Any:
        """A message as SES's receipt rule takes it (every verdict PASS unless given), queued and
        taken by the mail function as on AWS (`mail_in`: local_stack/aws/inbound_queue.py)."""
        return self.mail_in.receive(raw, recipients, verdicts)

    def host(self, command: dict[str, Any]) -> dict[str, Any]:
        reply: dict[str, Any] = self.invoke("HostCommandsFunction", command)
        if command.get("command") == "create" and reply.get("ok"):
            for inbox in self._unbound_inboxes:
                inbox.follow(reply["match_id"])
            self._unbound_inboxes.clear()
        return reply

    def submit(
        self,
        match_id: str,
        player: str,
        secret: str,
        body: dict[str, Any] | str,
        delivery_id: str | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """POST a submission through the webhook function, as API Gateway's HTTP API calls it."""
        event = http_api_event(match_id, player, secret, body, delivery_id or str(uuid.uuid4()))
        reply = self.invoke("SubmitWebhookFunction", event)
        return int(reply["statusCode"]), json.loads(reply["body"])

    def subscribe(self, players: list[str], match_id: str | None = None) -> Inbox:
        """An inbox for the match's public notices and those players' private ones; made before
        the match exists, it follows the next match `host` creates."""
        inbox = Inbox(self, players, match_id)
        if match_id is None:
            self._unbound_inboxes.append(inbox)
        return inbox

    def execution(self, match_id: str, game_id: str) -> dict[str, Any]:
        """The match's newest execution (a recovered match has one per attempt, each named after it)."""
        sfn = self.client("stepfunctions")
        executions = [
            execution
            for page in sfn.get_paginator("list_executions").paginate(stateMachineArn=self.state_machines[game_id])
            for execution in page["executions"]
            if execution["name"].startswith(match_id)
        ]
        if not executions:
            raise LookupError(f"no execution of {game_id} for {match_id}")
        newest = max(executions, key=lambda execution: execution["startDate"])
        description: dict[str, Any] = sfn.describe_execution(executionArn=newest["executionArn"])
        return description

    def wait_for_execution(self, match_id: str, game_id: str, timeout: float = 120) -> str:
        """The execution's status once it has ended; on a virtual clock, once it has ended or
        parked in a wait (RUNNING then: only advancing the clock can end it)."""
        if self.clock is not None:
            self.settle(max(timeout, SETTLE_SECONDS))
            return str(self.execution(match_id, game_id)["status"])
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = str(self.execution(match_id, game_id)["status"])
            if status != "RUNNING":
                return status
            time.sleep(0.2)
        raise TimeoutError(f"execution of {match_id} still running after {timeout} s")

    # -- the virtual clock -----------------------------------------------------------------

    def _virtual(self) -> VirtualClock:
        if self.clock is None:
            raise RuntimeError("this stack runs on the wall clock: make it with LocalStack(clock=VirtualClock())")
        return self.clock

    def running_executions(self) -> list[str]:
        """The ARNs of every running execution of the stack's state machines."""
        return executions.running(REGION, self.state_machines.values())

    def idle(self) -> bool:
        """Every running execution is parked in a wait of the clock (or none is running)."""
        return self._virtual().idle(self.running_executions())

    def settle(self, timeout: float = SETTLE_SECONDS) -> None:
        """Wait, in real time, until every running execution is parked in a wait of the virtual
        clock or has ended: what a host act or a submission set going has then all happened."""
        clock = self._virtual()
        deadline = time.monotonic() + timeout
        seen = clock.await_change(None, 0)
        while busy := clock.busy(self.running_executions()):
            if time.monotonic() > deadline:
                raise TimeoutError(f"executions still busy after {timeout} s (not parked in a wait): {busy}")
            # Woken as a wait begins or ends, an event of the clock's is set or an execution ends;
            # LOOK_SECONDS bounds the wait for what the clock is not told (a Map's iteration ending).
            seen = clock.await_change(seen, LOOK_SECONDS)

    def now(self) -> datetime:
        """What the handlers read as now."""
        return self._virtual().now()

    def advance(self, seconds: float) -> None:
        """Let `seconds` pass on the virtual clock: every wait due meanwhile wakes at its own
        instant, in order, and the machine settles after each, then at the end."""
        clock = self._virtual()
        self.settle()
        target = clock.time() + seconds
        while (wake := clock.next_wake()) is not None and wake <= target:
            clock.advance_to(wake)
            self.settle()
        clock.advance_to(target)
        self.settle()

    def advance_to_next_wake(self) -> float:
        """Advance to the instant the earliest waiting state machine wakes by itself (a deadline,
        or a recheck of the clock); returns the seconds that passed."""
        clock = self._virtual()
        self.settle()
        wake = clock.next_wake()
        if wake is None:
            raise RuntimeError("nothing is waiting on the clock")
        passed = wake - clock.time()
        clock.advance_to(wake)
        self.settle()
        return passed


class Inbox:
    """SQS queues subscribed to the topics as the service subscribes a participant's email: the
    public topic filtered on the `match_id` attribute, the private one on `match_id` and
    `recipient` (one queue per player). An inbox made before its match exists filters on the
    recipient alone until it `follow`s the match (the stack's `host` does that on creation), so
    it still hears the match begin."""

    def __init__(self, stack: LocalStack, players: list[str], match_id: str | None = None) -> None:
        self.sqs = stack.client("sqs")
        self.sns = stack.client("sns")
        self.queues: dict[str | None, str] = {}
        self.subscriptions: dict[str | None, str] = {}
        self.match_id = match_id
        for player in [None, *players]:
            name = f"inbox-{player or 'public'}-{uuid.uuid4().hex[:6]}"
            url = self.sqs.create_queue(QueueName=name)["QueueUrl"]
            arn = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
            attributes = {"RawMessageDelivery": "true"}
            policy = self.filter_policy(player)
            if policy:
                attributes["FilterPolicy"] = json.dumps(policy)
            topic = stack.public_topic if player is None else stack.private_topic
            subscription = self.sns.subscribe(
                TopicArn=topic, Protocol="sqs", Endpoint=arn, Attributes=attributes, ReturnSubscriptionArn=True
            )
            self.subscriptions[player] = subscription["SubscriptionArn"]
            self.queues[player] = url

    def filter_policy(self, player: str | None) -> dict[str, list[str]]:
        """What the service's own subscription for this player (None: the public) filters on."""
        policy = {} if self.match_id is None else {"match_id": [self.match_id]}
        return policy if player is None else policy | {"recipient": [player]}

    def follow(self, match_id: str) -> None:
        """From now on, only that match's notices."""
        self.match_id = match_id
        for player, arn in self.subscriptions.items():
            self.sns.set_subscription_attributes(
                SubscriptionArn=arn, AttributeName="FilterPolicy", AttributeValue=json.dumps(self.filter_policy(player))
            )

    def receive(self, player: str | None = None) -> list[dict[str, Any]]:
        """Everything delivered so far to the public (None) or to one player, oldest first."""
        messages = []
        while True:
            batch = self.sqs.receive_message(QueueUrl=self.queues[player], MaxNumberOfMessages=10).get("Messages", [])
            if not batch:
                return messages
            for message in batch:
                messages.append(json.loads(message["Body"]))
                self.sqs.delete_message(QueueUrl=self.queues[player], ReceiptHandle=message["ReceiptHandle"])
