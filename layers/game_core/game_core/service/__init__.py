"""The use cases, written against ports (`ports`; `game_core.aws` has the adapters).

The kernel stands here, flat: `ports`, `workflow_port` and `event` (what the use cases are written
against), `retries` (the read-decide-write loop) and `commands` (the host's commands and the
machines' steps as models, each dispatched to one use case of a room). Every use case lives in a
room, named for what it serves:

- `matches/`: a match's own use cases (create, submit, actions, the phases' steps, grace, ...);
- `host/`: the host's powers over a match;
- `telling/`: how the service speaks to people (notices, letters, links), every channel;
- `webhooks/`: notices sent to URLs;
- `mail/`: play by e-mail;
- `season/`: a season's use cases;
- `page/`: the player's page.

Each room's docstring says what it may import; tests/test_architecture.py holds it to that. No
room imports `game_core.aws` (the layers import one way).
"""
