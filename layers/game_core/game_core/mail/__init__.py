"""Play by e-mail, the pure core: read what a player wrote in an inbound message (`inbound`), read
the notification SES delivers through SNS and judge its verdicts (`ses`), find the match a message
is for (`addresses`), and write plain-text answers and notices (`outbound`).

Nothing here calls AWS or knows a game: the handler, the use case and the sending adapter stand on
it. Only the standard `email` package (policy `email.policy.default`) and pydantic are used.
"""
