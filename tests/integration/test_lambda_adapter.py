"""The moto seam: moto runs Lambda code only in Docker, so local_stack.lambda_adapter replaces one
private method of one pinned moto version. These tests fail loudly the day that seam moves."""

from __future__ import annotations

import inspect
import io
import json
import threading
import zipfile
from importlib.metadata import version

import moto
import moto.awslambda.models as lambda_models
import moto.stepfunctions.models as sfn_models
import pytest
from moto.core.botocore_stubber import BotocoreStubber

from local_stack import lambda_adapter
from local_stack.stack import ROLE


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
    restore = lambda_adapter.install(lambda_adapter.InProcessLambdas())
    assert lambda_models.LambdaFunction._invoke_lambda is not original
    assert BotocoreStubber.__call__ is not original_call
    assert "__deepcopy__" in vars(sfn_models.StateMachine)
    restore()
    assert lambda_models.LambdaFunction._invoke_lambda is original
    assert BotocoreStubber.__call__ is original_call
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
        "PhaseStepFunction",
        "HostCommandsFunction",
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
