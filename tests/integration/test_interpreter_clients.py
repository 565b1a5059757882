"""The local stack's interpreter shares one Lambda client per region (local_stack/aws/interpreter_clients.py)."""

from __future__ import annotations

import moto.stepfunctions.parser.asl.component.state.exec.state_task.lambda_eval_utils as lambda_eval_utils

from local_stack.aws import interpreter_clients


def test_the_seam_is_the_one_pinned() -> None:
    # A changed digest means moto's boto_client_for changed: re-read it before sharing its clients.
    assert interpreter_clients.seam_digest() == interpreter_clients.SEAM_DIGEST


def test_every_task_of_a_stack_uses_one_lambda_client(crates_match, stack) -> None:
    made = interpreter_clients._shared.cache_info().misses
    match = crates_match(2, phase_seconds=60)
    match.advance(60)  # the Pregame resolves: two more Lambda tasks
    match.wait_resolved(1)
    tasks = lambda_eval_utils.boto_client_for(stack.client("lambda").meta.region_name, "lambda")
    assert tasks is lambda_eval_utils.boto_client_for(stack.client("lambda").meta.region_name, "lambda")
    assert interpreter_clients._shared.cache_info().misses - made <= 1  # at most the process's first
