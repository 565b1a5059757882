"""moto's Step Functions without its Batch and EC2 (imported first, by this package's __init__).

In moto 5.2.1 the Step Functions parser imports every service integration at once, the Batch one
among them, which takes one enum from `moto.batch.utils`; importing that runs `moto/batch/__init__`,
which imports Batch's models and with them all of EC2's (its regions, zones and instance types are
built at import). That was a third of what importing the local stack cost, in every process that
starts one (bin/host-server's restart, every test process and subprocess), for a service no
state machine here calls.

`batch_utils_alone()` imports `moto.batch.utils` under a package that has not run its __init__,
then forgets that package: the parser finds the module it needs, and whoever imports `moto.batch`
later (moto's Batch backend, on a Batch call) gets the real package, its __init__ run as ever, on
the same `utils` module. Only while that __init__ is `BATCH_INIT` (nothing but the models): another
moto's is imported as it is (tests/integration/test_moto_imports.py fails then, as EC2 comes back).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

BATCH_INIT = "from .models import batch_backends  # noqa: F401\n"
"""moto/batch/__init__.py in moto 5.2.1: nothing but its models, so skipping it skips nothing else."""


def batch_utils_alone() -> bool:
    """`moto.batch.utils` imported without `moto.batch`'s __init__, if that __init__ is BATCH_INIT
    and neither is imported yet: whether it was."""
    if "moto.batch" in sys.modules or "moto.batch.utils" in sys.modules:
        return False
    spec = importlib.util.find_spec("moto.batch")
    if spec is None or spec.origin is None or Path(spec.origin).read_text(encoding="utf-8") != BATCH_INIT:
        return False
    sys.modules["moto.batch"] = importlib.util.module_from_spec(spec)  # its path, not its __init__
    try:
        importlib.import_module("moto.batch.utils")
    finally:
        del sys.modules["moto.batch"]
    return True


batch_utils_alone()
