"""A season's use cases (the rules are `game_core.season`'s, pure): `lifecycle` (create, apply a
step once), `machine` (the season machine's steps), `stages`, `waits`, `ports`, `host` (the host's
acts on a season) and `commands` (its console command), `acts` and `mail` (an Elimination
Candidate's acts), `news` (the season told to its whole cast), `guests`, `hooks`, `alerts`,
`export`.

May import: the kernel, `matches`, `host`, `telling`, `webhooks`, `mail`. Not `page`.
"""
