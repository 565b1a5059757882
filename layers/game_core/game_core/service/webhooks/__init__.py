"""Notices sent to URLs (issue 20): `sending` (subscriptions, each delivery, its signature, an
attempt), `queue` (`Hook`, `Delivery` and the `Hooks` port), `lanes` (a batch side by side),
`retries` (what a receiver's answer means), `bodies` (Discord's and Slack's), `urls` (where a URL
may point).

May import: the kernel, `matches` (a delivery's submission), `telling` (what a notice says).
Not `host`, `mail`, `season` or `page`.
"""
