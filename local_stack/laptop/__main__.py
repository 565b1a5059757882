"""bin/host-server's start, the garbage collector off until the server serves (cli.main turns it
back on): the start makes some half a million objects that live as long as the server (modules,
moto's resources, the table), and the collector walked them again and again while they were made,
a fifth of the start's CPU (0.5 of 2.3 s at 50 matches), for next to no garbage."""

import gc

gc.disable()

from local_stack.laptop.cli import main  # noqa: E402 - after the collector is off: its imports are the start's first half

raise SystemExit(main())
