"""moto as AWS on one machine: `stack` (the whole stack, `LocalStack`), `template` (template.yaml
read), `api_events`, `lambda_adapter` and `interpreter_clients` (the real handlers run
in-process), `executions`, `clock`, `clock_events`, `clock_map` and `sqs_clock` (a clock only a
test moves), `faults` (injected failures), `metering`, `moto_dynamodb`, `moto_expressions`,
`moto_direct`, `moto_lock`, `moto_caches` and `moto_imports` (moto made fit), `mail` (the outbox),
`inbound_bucket` and `inbound_queue` (received mail), `webhooks` (SQS deliveries), `server`
(bin/local-stack).

May import `game_core` (the handlers under functions/ are loaded by path); nothing of
`local_stack.laptop` or `local_stack.bots`.
"""

from local_stack.aws import moto_imports  # noqa: F401 - first: before any moto.stepfunctions import
