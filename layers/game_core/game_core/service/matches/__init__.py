"""A match's own use cases: `lifecycle` (create, status, export), `submit`, `actions` (immediate
ones), `phases` (the state machine's steps), `sheets` (submissions as stored), `receipts`,
`views` (where a participant stands), `handover` (continue-as-new), `grace`, `absence`, `ready`,
`press` (messages between players).

May import: the kernel (`service.ports`, `service.retries`, ...), `telling`, `webhooks`. Not
`host` (the host acts on a match: it imports `matches`), nor `mail`, `season` or `page`: those
are channels and callers of a match, not parts of it.
"""
