"""The host's powers over a match: `powers` (the open phase's clock, recover, decide a tie,
reissue a secret, cancel) and `replace` (a seat handed to a new player).

May import: the kernel, `matches`, `telling`, `webhooks`. Not `mail`, `season` or `page`.
"""
