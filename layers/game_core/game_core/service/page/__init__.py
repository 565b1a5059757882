"""The player's page (issue 21): `GET /play/{match_id}`, server-rendered HTML that works without
JavaScript (forms POST, then redirect), served by the webhook function and by bin/host-server.

Modules: `session` (the cookie and the form token), `play` (the use cases: one read per page;
the messages page's is its match's header and log, one Query),
`forms` (a kind's form from its JSON schema, and back), `render` (the HTML of the page and the
sign-in page, from `html`'s parts: `esc`, the document, a form's frame; `inputs` a form's inputs,
`away` the absences section), `messages` (the messages page), `assets` (the one
style sheet and the one script, `static/`), `board` (the game drawn from the participant's view),
`check` (a move checked before it is sent), `receipt_view` (a sealed receipt shown),
`season_page` (the season's page).

May import: the kernel, `matches`, `telling`, `season` (what the page shows and does). Not
`host`, `mail` or `webhooks`, and nothing of `local_stack` (bin/host-server serves the page).

Signing in: the host shares `/play/{match_id}#<secret>`. A fragment is never sent to a server,
so no log holds it: the page's script puts it in the sign-in form and posts it (and takes it off
the address bar); without JavaScript the player types it in the same form. Either way the reply
sets the session cookie (HttpOnly, SameSite=Strict, Path=/play/{match_id}, Secure but on the
laptop's plain HTTP) and redirects to the page.

Stable hooks for tests and assistive technology (ids unless said):
- `sign-in` the sign-in form, its `secret` input; `reasons` (role alert) why a sign-in or a form
  was refused, each reason an `li` with `data-code` (the service's stable code);
- `game` the game's title, `match-id`, `you` (the participant's name), `sign-out` (a form: the
  cookie dropped), `phase` the phase section,
  `phase-name`, `phase-words`, `deadline`, `countdown` (a `time` with `datetime` and the server's
  `data-now`, which the script turns into a live count), `countdown-left`, `countdown-local`;
- `owes` who still owes the phase a move (names only, `open_phase_summary`'s `waiting_for`),
  `ready-votes`, the `ready` form (button: vote or take the vote back);
- `notice` (role status) after a move or vote was taken, `answer` an action's answer;
- `sent` what this participant sent this phase, `sent-<kind>` each kind, `receipt-<kind>` its
  sealed receipt, folded (`receipt_view`), `copy-receipt-<kind>` where the script puts its copy button;
- `moves` the section of forms: `move-<kind>` each submission kind the open phase takes from
  them, `action-<kind>` each immediate action (Clubs: puzzle, answer, transfer, peek); an input
  is `<form id>-<field path, dots as dashes>` (`move-round-ground`, `move-round-pushes-0-crate`)
  with a `label`, its hint `<input id>-hint`, the service's reason naming it `<input id>-error`;
  the grammar box is `<form id>-lines`; where the script runs, `<form id>-check` (role status)
  under a move form the service's verdict on it as written (`check.py`, `data-legal`), and on
  Crates' track a `g.push` button per crate and direction (`data-crate`, `data-direction`) with
  `push-said` saying the push written; Domino's `place-tray` (`place-piece-<n>` each piece,
  `data-legal`; `place-rotate`, `place-flip`, `place-remove`, `place-send`; `place-said` on the
  piece looked at, `place-verdict`) with `rect.place-target` on the own board and
  `path.preview`, its `bid-tray` (`bid-chips`, `bid-total`, `bid-verdict`, `bid-send`) with each
  open tile's box `rect.hit` its button; Abstrac's `card-tray` (`card-said`, `card-verdict`,
  `card-send`) with each card to lay (`g[data-lay]`) or take (`g[data-take]`) a button;
  `puzzle-clocks` beside Clubs' answer form, each
  `puzzle-<n>-clock` (a `time.elapsed` the script counts on);
- `board` the game as it stands for this participant, first on the page (`board.py`): the
  game's drawing of their own view (`DrawsBoard`: an inline `svg`, role img, its words in the
  visually hidden `board-alt`), each element that changed since their last visit of class
  `changed` with "new" beside it, and named in `board-new`; where the game draws no board, its
  mail pictures (`img.board`). The last visit is remembered in a second cookie, `seen_<match_id>`
  (same path and flags as the session's): the phase number and one HMAC digest (keyed by the
  session's form token) per drawn element as last shown; forged or stale it only changes the marks
  on that browser's page, and without the session's key it tells nothing of the view;
- `view` the participant's own view in words, after the forms, folded (a `details`): `view-text`;
- `garnets`;
- `graces` their graces left (where the match has graces), `grace-held` and `held-for` whom the
  deadline is held for (a grace, an announced absence);
- `absences` the section of who is `away` (each `li`), `your-absences`, the `absence` form
  (`absence-from`, `absence-to`: date inputs, `absence-zone` the zone they are read in) and
  `absence-cancel` (withdraw), `absence-rules`;
- `page-link`, `messages-link`: the page and the messages page, `GET /play/{match_id}/messages`
  (read only when asked: the page itself reads no message): the `press` form (`press-everyone`,
  `press-to-<id>` each other participant, `press-text`; `press-off` instead where the host turned
  messages off), `press-mode`, and `messages` (each `li` `message-<id>`, class `sent` for theirs);
  `season-link`, on a season's match: the season's page, `GET /play/{match_id}/season`.

Every page a GET shows carries `data-refresh` on its `main`: the script reloads it that often
while the tab is visible, and a few seconds after the countdown reaches zero (`html.REFRESH_SECONDS`).
"""
