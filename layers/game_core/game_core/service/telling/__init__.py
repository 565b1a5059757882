"""How the service speaks to people, every channel: `notices` (each participant's, from their view
alone), `letters` (the mail a person reads), `channels` (`tell`: SNS, mail, webhooks, each once),
`links` (each participant's link to their page), `named` (moves as a person reads them),
`stored` (a stored act told once, its failed tell kept to send the rest again).

May import: the kernel, `matches` (what a notice reports: receipts), `webhooks` (a channel).
Not `host`, `mail`, `season` or `page`.
"""
