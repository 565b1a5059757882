"""bin/host-server: a real match hosted from one laptop. `__main__` and `cli` (the command), `server` (the
process: `HostServer`), `http_api` (the HTTP API as API Gateway serves it, the host's commands),
`smtp` (the mail port), `access` (who may act) and `login_index` (which matches an SMTP login
plays in), `http_serving` and `http_guards` (the HTTP ports), `page`, `create_page`,
`new_match_form`, `new_match_reading` and `result` (the host's page), `season_pages`,
`season_view`, `season_act_forms`, `new_season_form` and `new_season_reading` (its seasons),
`persistence` and `table_file` (the table on disk), `recovery` and `restart_grace` (a restart),
`match_locks`, `players_url`, and the host's own mail account: `mail_options`, `mail_queue`,
`mail_undelivered`, `mailbox`, `mail_trust`.

May import `game_core` and `local_stack.aws`; nothing of `local_stack.bots`.
"""
