"""The moto seams: moto runs Lambda code only in Docker, so local_stack.aws.lambda_adapter replaces one
private method of one pinned moto version; and moto's Step Functions interpreter waits in real
time, so local_stack.aws.clock routes its waits through a virtual clock. These tests fail loudly the
day a seam moves."""

from __future__ import annotations

import datetime
import inspect
import io
import json
import threading
import time
import zipfile
from datetime import timedelta
from importlib.metadata import version

import moto
import moto.awslambda.models as lambda_models
import moto.stepfunctions.models as sfn_models
import moto.stepfunctions.parser.asl.component.common.retry.retrier_decl as retrier_decl
import moto.stepfunctions.parser.asl.component.state.exec.execute_state as execute_state
import moto.stepfunctions.parser.asl.component.state.exec.state_task.service.state_task_service_callback as callback
import moto.stepfunctions.parser.asl.component.state.wait.wait_function.timestamp as timestamp
import moto.stepfunctions.parser.asl.component.state.wait.wait_function.wait_function as wait_function
import moto.stepfunctions.parser.asl.eval.callback.callback as callback_endpoints
import pytest
from botocore.exceptions import ClientError
from conftest import crates_request
from moto.core.botocore_stubber import BotocoreStubber

from local_stack.aws import clock, clock_events, lambda_adapter
from local_stack.aws.stack import ROLE


def test_moto_is_the_pinned_version() -> None:
    assert version("moto") == lambda_adapter.PINNED_MOTO == "5.2.1"
    assert moto.__version__ == lambda_adapter.PINNED_MOTO


def test_the_patched_method_exists_with_the_signature_the_adapter_replaces() -> None:
    method = lambda_models.LambdaFunction._invoke_lambda
    parameters = list(inspect.signature(method).parameters.values())
    assert [p.name for p in parameters] == ["self", "event"]
    assert parameters[1].default is None


def test_moto_still_calls_the_patched_method_for_every_invocation() -> None:
    # moto's invoke path hands the payload to _invoke_lambda by keyword and unpacks a triple.
    source = inspect.getsource(lambda_models.LambdaFunction.invoke)
    assert "self._invoke_lambda(event=" in source
    assert "res, errored, logs = " in source


def test_install_refuses_another_moto_version(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lambda_adapter, "version", lambda _package: "5.9.9")
    with pytest.raises(RuntimeError, match=r"moto 5\.2\.1.*moto 5\.9\.9 is installed"):
        lambda_adapter.install(lambda_adapter.InProcessLambdas())


def test_install_and_restore_leave_moto_as_it_was() -> None:
    original = lambda_models.LambdaFunction._invoke_lambda
    original_call = BotocoreStubber.__call__
    original_notify = callback_endpoints.CallbackPoolManager.notify
    restore = lambda_adapter.install(lambda_adapter.InProcessLambdas())
    assert lambda_models.LambdaFunction._invoke_lambda is not original
    assert BotocoreStubber.__call__ is not original_call
    assert callback_endpoints.CallbackPoolManager.notify is not original_notify
    assert "__deepcopy__" in vars(sfn_models.StateMachine)
    restore()
    assert lambda_models.LambdaFunction._invoke_lambda is original
    assert BotocoreStubber.__call__ is original_call
    assert callback_endpoints.CallbackPoolManager.notify is original_notify
    assert "__deepcopy__" not in vars(sfn_models.StateMachine)


def _zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("app.py", "def handler(event, context):\n    raise AssertionError('not run')\n")
    return buffer.getvalue()


def test_boto3_lambda_invoke_reaches_the_in_process_handler(stack) -> None:
    # Given a function moto knows and a handler registered in-process under its name
    seen = []

    def echo(event, context):
        seen.append((event, context.function_name))
        return {"echo": event, "request": context.aws_request_id is not None}

    lambdas = stack.client("lambda")
    lambdas.create_function(
        FunctionName="Echo", Runtime="python3.11", Role=ROLE, Handler="app.handler", Code={"ZipFile": _zip()}
    )
    stack.lambdas.register("Echo", echo)

    # When it is invoked through boto3, as the host CLI and Step Functions do
    response = lambdas.invoke(FunctionName="Echo", Payload=json.dumps({"n": 1}).encode())

    # Then the handler ran here, with the event as sent, and its reply came back
    assert seen == [({"n": 1}, "Echo")]
    assert "FunctionError" not in response
    assert json.loads(response["Payload"].read()) == {"echo": {"n": 1}, "request": True}
    assert stack.lambdas.invocations[-1] == "Echo"


def test_a_handler_exception_is_a_lambda_function_error(stack) -> None:
    def broken(event, context):
        raise ValueError("the handler broke")

    lambdas = stack.client("lambda")
    lambdas.create_function(
        FunctionName="Broken",
        Runtime="python3.11",
        Role=ROLE,
        Handler="app.handler",
        Code={"ZipFile": _zip()},
    )
    stack.lambdas.register("Broken", broken)

    response = lambdas.invoke(FunctionName="Broken", Payload=b"{}")

    assert response["FunctionError"]
    payload = json.loads(response["Payload"].read())
    assert (payload["errorType"], payload["errorMessage"]) == ("ValueError", "the handler broke")


def test_the_template_functions_are_the_registered_handlers(stack) -> None:
    assert set(stack.lambdas.handlers) == {
        "SubmitWebhookFunction",
        "PlayerPageFunction",
        "PhaseStepFunction",
        "SeasonStepFunction",
        "HostCommandsFunction",
        "EmailInFunction",
        "WebhookDeliverFunction",
    }
    reply = stack.host({"command": "status", "match_id": "m-000000000000"})
    assert (reply["ok"], reply["error"]) == (False, "NotFound")
    assert stack.lambdas.invocations == ["HostCommandsFunction"]


def test_a_state_machine_runs_twice_on_one_stack(crates_match) -> None:
    # moto 5.2.1 deep-copied live executions at StartExecution (getmoto/moto#10077): the second
    # match of a game on one stack could not start. The adapter copies the definition alone.
    first = crates_match(2)
    second = crates_match(2)
    assert first.execution()["status"] == second.execution()["status"] == "RUNNING"
    first.host("cancel")
    second.host("cancel")
    assert first.wait_for_execution() == second.wait_for_execution() == "SUCCEEDED"


def test_concurrent_transactions_from_several_threads_all_land(stack) -> None:
    # A state machine thread and a host command or submission write at the same time; moto's
    # TransactWriteItems deep-copies the table for its rollback and is not thread-safe, so the
    # adapter serializes calls into moto. Without that: RuntimeErrors and lost writes.
    dynamodb = stack.client("dynamodb")
    errors: list[Exception] = []

    def write(thread: int) -> None:
        try:
            for n in range(40):
                items = [{"pk": {"S": f"T{thread}#{n}"}, "sk": {"S": sk}} for sk in ("a", "b")]
                dynamodb.transact_write_items(
                    TransactItems=[{"Put": {"TableName": "matches", "Item": item}} for item in items]
                )
        except Exception as error:  # noqa: BLE001 - collected and reported below
            errors.append(error)

    threads = [threading.Thread(target=write, args=(thread,)) for thread in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert dynamodb.scan(TableName="matches", Select="COUNT")["Count"] == 3 * 40 * 2


# -- the clock seams: moto's Step Functions waits, routed through the virtual clock -------------------


@pytest.mark.parametrize("seam", sorted(clock.MOTO_SEAMS))
def test_each_clock_seam_is_moto_5_2_1s_code(seam: str) -> None:
    # local_stack.aws.clock replaces (or re-points the module globals of) these moto functions; a
    # changed digest means moto's waits changed: re-read them and redo the copy in clock.py.
    assert clock.seam_digest(seam) == clock.MOTO_SEAMS[seam], (
        f"moto's {seam} changed: re-check local_stack/aws/clock.py"
    )


def test_the_clock_seams_have_the_shapes_the_clock_relies_on() -> None:
    wait_for_token = callback.StateTaskServiceCallback._wait_for_task_token_timeout
    assert list(inspect.signature(wait_for_token).parameters) == ["self", "timeout_seconds", "callback_endpoint"]
    assert "_notify_event" in inspect.getsource(callback_endpoints.CallbackEndpoint.__init__)
    assert "time.sleep(interval_seconds)" in inspect.getsource(retrier_decl.RetrierDecl._eval_body)
    assert "datetime.datetime.now()" in inspect.getsource(timestamp.Timestamp._get_wait_seconds)
    assert "self._wait_interval(env=env, wait_seconds=w_sec)" in inspect.getsource(wait_function.WaitFunction)


def test_patch_moto_refuses_another_moto_version(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock, "version", lambda _package: "5.9.9")
    with pytest.raises(RuntimeError, match=r"moto 5\.2\.1.*moto 5\.9\.9 is installed"):
        clock.patch_moto(clock.VirtualClock())


def test_patch_moto_and_restore_leave_moto_as_it_was() -> None:
    seams = {seam: clock._resolve(seam) for seam in clock.MOTO_SEAMS}
    waits = (
        execute_state.ExecutionState._evaluate_with_timeout,
        callback.StateTaskServiceCallback._wait_for_task_token_timeout,
        wait_function.WaitFunction._wait_interval,
    )
    restore = clock.patch_moto(clock.VirtualClock())
    assert (
        execute_state.ExecutionState._evaluate_with_timeout,
        callback.StateTaskServiceCallback._wait_for_task_token_timeout,
        wait_function.WaitFunction._wait_interval,
    ) != waits
    assert timestamp.datetime is not datetime and retrier_decl.time is not time
    restore()
    assert {seam: clock._resolve(seam) for seam in clock.MOTO_SEAMS} == seams
    assert timestamp.datetime is datetime and retrier_decl.time is time


@pytest.mark.parametrize("seam", list(clock_events.SEAMS), ids=lambda seam: seam.__qualname__)
def test_each_clock_event_seam_is_moto_5_2_1s_code(seam) -> None:
    # local_stack.aws.clock_events makes these functions' events the clock's, or pokes it after them.
    assert clock_events.seam_digest(seam) == clock_events.SEAMS[seam], (
        f"moto's {seam.__qualname__} changed: re-check local_stack/aws/clock_events.py"
    )


def test_while_patched_a_task_tokens_event_wakes_the_clock_and_after_it_is_moto_s_own() -> None:
    the_clock = clock.VirtualClock()
    restore = clock.patch_moto(the_clock)
    endpoint = callback_endpoints.CallbackEndpoint("token")
    seen = the_clock.await_change(None, 0)
    endpoint.notify(outcome=None)  # as SendTaskSuccess does
    assert isinstance(endpoint._notify_event, clock_events.ClockEvent)
    assert the_clock.await_change(seen, 0) > seen  # a settle waiting on the clock is woken
    restore()
    assert type(callback_endpoints.CallbackEndpoint("token")._notify_event) is threading.Event


def test_the_handlers_read_the_stacks_clock_and_the_lambda_environment_the_wall_clock(stack) -> None:
    from game_core.aws.wiring import SystemClock, ports_from_environment

    # Given a match created at the stack's start, whose Pregame closes an hour later
    created = stack.host({"command": "create", "match": crates_request(2)})
    deadline = created["open"]["deadline"]
    assert stack.ports().clock is stack.clock
    # When an hour passes on the stack's clock (and seconds on the wall's)
    stack.advance(3600)
    # Then the host's status, read by the handler, is checked at the stack's now: the deadline
    assert stack.host({"command": "status", "match_id": created["match_id"]})["checked_at"] == deadline
    # while a function on AWS, built from the same environment, reads the wall clock
    assert isinstance(ports_from_environment().clock, SystemClock)


WAITS_ASL = {
    "StartAt": "Flaky",
    "States": {
        "Flaky": {
            "Type": "Task",
            "Resource": "arn:aws:states:::lambda:invoke",
            "Parameters": {"FunctionName": "FLAKY", "Payload": {}},
            "ResultPath": None,
            "Retry": [{"ErrorEquals": ["States.ALL"], "IntervalSeconds": 60, "MaxAttempts": 2}],
            "Next": "Nap",
        },
        "Nap": {"Type": "Wait", "Seconds": 30, "Next": "Until"},
        "Until": {"Type": "Wait", "TimestampPath": "$.until", "Next": "Token"},
        "Token": {
            "Type": "Task",
            "Resource": "arn:aws:states:::lambda:invoke.waitForTaskToken",
            "Parameters": {"FunctionName": "KEEP", "Payload": {"token.$": "$$.Task.Token"}},
            "TimeoutSeconds": 100,
            "Catch": [{"ErrorEquals": ["States.Timeout"], "Next": "Timed out"}],
            "Next": "Woken",
        },
        "Timed out": {"Type": "Succeed"},
        "Woken": {"Type": "Succeed"},
    },
}


def _waits_machine(stack, *, linger: bool = False) -> tuple[str, list[str]]:
    """A state machine with every kind of wait: a Retry, a Wait of seconds and one until a
    timestamp, and a waitForTaskToken Task with a timeout (`linger`: then a Wait of 1000 s, so the
    execution outlives the task). Returns its ARN and the tokens kept."""
    calls: list[int] = []
    tokens: list[str] = []

    def flaky(event, context):
        calls.append(1)
        if len(calls) % 2:
            raise RuntimeError("a transient failure")
        return {}

    def keep(event, context):
        tokens.append(event["token"])
        return {}

    lambdas = stack.client("lambda")
    arns = {}
    for name, handler in (("Flaky", flaky), ("Keep", keep)):
        arns[name.upper()] = lambdas.create_function(
            FunctionName=name, Runtime="python3.11", Role=ROLE, Handler="app.handler", Code={"ZipFile": _zip()}
        )["FunctionArn"]
        stack.lambdas.register(name, handler)
    asl = json.loads(json.dumps(WAITS_ASL))
    if linger:
        for end in ("Timed out", "Woken"):
            asl["States"][f"{end} (done)"] = asl["States"][end]
            asl["States"][end] = {"Type": "Wait", "Seconds": 1000, "Next": f"{end} (done)"}
    definition = json.dumps(asl)
    for placeholder, arn in arns.items():
        definition = definition.replace(f'"{placeholder}"', json.dumps(arn))
    name = "lingering-waits" if linger else "waits"
    machine = stack.client("stepfunctions").create_state_machine(name=name, definition=definition, roleArn=ROLE)
    stack.state_machines[name] = machine["stateMachineArn"]
    return machine["stateMachineArn"], tokens


def _where(stack, execution_arn: str) -> str:
    """The state the execution is in (the last one entered), or its status once it has ended."""
    sfn = stack.client("stepfunctions")
    status = sfn.describe_execution(executionArn=execution_arn)["status"]
    if status != "RUNNING":
        return status
    events = sfn.get_execution_history(executionArn=execution_arn)["events"]
    return [e["stateEnteredEventDetails"]["name"] for e in events if "stateEnteredEventDetails" in e][-1]


def test_every_wait_of_the_interpreter_runs_on_the_virtual_clock(stack) -> None:
    # Given a state machine with every kind of wait, started with a timestamp 50 s from now
    machine, tokens = _waits_machine(stack)
    until = (stack.now() + timedelta(seconds=50)).strftime("%Y-%m-%dT%H:%M:%SZ")
    sfn = stack.client("stepfunctions")
    execution = sfn.start_execution(stateMachineArn=machine, name="waits", input=json.dumps({"until": until}))[
        "executionArn"
    ]

    # Then the retry after the first failure takes no time (its 60 s interval is skipped), and the
    # machine parks in its 30 s Wait state, however long it is left there in real time
    stack.settle()
    assert stack.clock.skipped_retries == [60]
    assert _where(stack, execution) == "Nap"
    stack.advance(29)
    assert _where(stack, execution) == "Nap"
    # ... the Wait until the timestamp waits the 20 s left, to the second
    stack.advance(1)
    assert _where(stack, execution) == "Until"
    stack.advance(19)
    assert _where(stack, execution) == "Until"
    stack.advance(1)
    assert _where(stack, execution) == "Token"
    # ... and the task waits for its token for its 100 s, then times out (States.Timeout)
    assert len(tokens) == 1
    stack.advance(99)
    assert _where(stack, execution) == "Token"
    stack.advance(1)
    assert _where(stack, execution) == "SUCCEEDED"
    history = sfn.get_execution_history(executionArn=execution)["events"]
    entered = [e["stateEnteredEventDetails"]["name"] for e in history if "stateEnteredEventDetails" in e]
    assert entered[-1] == "Timed out"


def test_a_task_token_wakes_the_waiting_task_without_the_clock_moving(stack) -> None:
    machine, tokens = _waits_machine(stack)
    until = stack.now().strftime("%Y-%m-%dT%H:%M:%SZ")  # already past when the machine gets there
    sfn = stack.client("stepfunctions")
    execution = sfn.start_execution(stateMachineArn=machine, name="woken", input=json.dumps({"until": until}))[
        "executionArn"
    ]
    stack.advance(30)
    assert _where(stack, execution) == "Token"
    before = stack.clock.time()

    sfn.send_task_success(taskToken=tokens[-1], output="{}")
    stack.settle()

    assert _where(stack, execution) == "SUCCEEDED"
    assert stack.clock.time() == before
    history = sfn.get_execution_history(executionArn=execution)["events"]
    entered = [e["stateEnteredEventDetails"]["name"] for e in history if "stateEnteredEventDetails" in e]
    assert entered[-1] == "Woken"


def test_the_token_seam_is_moto_5_2_1s_code() -> None:
    # The adapter wraps CallbackPoolManager.notify: a finished task's token must not be accepted
    # again; moto keeps the endpoint in its pool and sets its event when the task is over.
    source = inspect.getsource(callback_endpoints.CallbackPoolManager.notify)
    assert "callback_endpoint = self._pool.get(callback_id, None)" in source
    assert "callback_endpoint.notify(outcome=outcome)" in source
    assert "self._notify_event.set()" in inspect.getsource(callback_endpoints.CallbackEndpoint.notify)
    assert "self._notify_event.set()" in inspect.getsource(callback_endpoints.CallbackEndpoint.interrupt_all)


def test_a_task_token_is_used_once_as_on_aws(stack) -> None:
    # Given two executions waiting on their tokens (one woken, one left to time out), which go on
    # running after their tasks are over
    machine, tokens = _waits_machine(stack, linger=True)
    until = stack.now().strftime("%Y-%m-%dT%H:%M:%SZ")
    sfn = stack.client("stepfunctions")
    for name in ("woken", "left"):
        sfn.start_execution(stateMachineArn=machine, name=name, input=json.dumps({"until": until}))
    stack.advance(30)
    woken, left = tokens
    sfn.send_task_success(taskToken=woken, output="{}")
    stack.advance(100)
    assert sorted(_where(stack, arn) for arn in stack.running_executions()) == ["Timed out", "Woken"]

    # Then a token whose task is over, woken or timed out, is refused as AWS refuses it
    for token in (woken, left):
        with pytest.raises(ClientError) as refused:
            sfn.send_task_success(taskToken=token, output="{}")
        assert refused.value.response["Error"]["Code"] == "TaskTimedOut"
