"""A Map state on the virtual clock (local_stack/aws/clock.py): the season's Death Matches run as
one Map iteration each, all at once.

In moto 5.2.1 a Map's state (`InlineIterationComponent._eval_body`) starts one thread per iteration
(`_launch_worker`) and waits for them all on a plain event (`JobPool.await_jobs`). The clock could
see one iteration parked in its wait and call the execution parked while another iteration was still
running its step (a Lambda starting its Death Match), so `LocalStack.settle` returned too early.
While patched, the clock knows each Map's pool of iterations before the first starts
(`VirtualClock.track_map`): the execution is parked only once it has one parked wait for itself and
one for each unfinished iteration; and the Map waits for its iterations through the clock, so its
own wait counts as parked.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import moto.stepfunctions.parser.asl.component.state.exec.state_map.iteration.inline_iteration_component as inline_map
import moto.stepfunctions.parser.asl.component.state.exec.state_map.iteration.job as map_jobs
from moto.stepfunctions.parser.utils import TMP_THREADS


def patch(clock: Any, execution_of: Callable[[Any], str | None]) -> Callable[[], None]:
    """Route a Map's iterations through `clock` (a VirtualClock: its `track_map` and `wait`);
    returns the function that restores moto."""
    component = inline_map.InlineIterationComponent
    pool = map_jobs.JobPool
    saved = (component._launch_worker, pool.await_jobs)

    def launch_worker(self: Any, env: Any, eval_input: Any, job_pool: Any) -> Any:
        # moto 5.2.1's _launch_worker, its pool tracked by the clock before an iteration starts.
        clock.track_map(job_pool, execution_of(env))
        worker = self._create_worker(env=env, eval_input=eval_input, job_pool=job_pool)
        worker_thread = threading.Thread(target=worker.eval, daemon=True)
        TMP_THREADS.append(worker_thread)
        worker_thread.start()
        return worker

    def await_jobs(self: Any) -> None:
        if not self._is_terminated():
            clock.wait(self._termination_event, None)

    component._launch_worker = launch_worker  # type: ignore[method-assign]
    pool.await_jobs = await_jobs  # type: ignore[method-assign]

    def restore() -> None:
        component._launch_worker, pool.await_jobs = saved  # type: ignore[method-assign]

    return restore
