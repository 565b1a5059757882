"""The service on one machine, in three rooms:

- `aws/`: moto as AWS, the real state machines and handlers run in-process (`stack.LocalStack`),
  its clock, faults, metering and mail; imports nothing of `laptop` or `bots`;
- `laptop/`: bin/host-server, a real match hosted from one laptop (its HTTP ports, the host's
  page, the table on disk, the host's own mail account); built on `aws`, imports no `bots`;
- `bots/`: a bot per game and what drives them through whole matches and seasons (bin/play);
  built on `aws`, imports nothing of `laptop`.

`game_core` imports nothing of `local_stack` (tests/test_architecture.py holds all of this).
"""
