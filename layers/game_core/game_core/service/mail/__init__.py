"""Play by e-mail: `receive` (one message SES received, read and answered), `lines` (which lines
of a mail are read), `grammar` (the commands a mail may carry and the moves' plain-text grammar),
`commands` and `moves` (a mail's commands run and its moves submitted, with the answer's lines),
`dead_letters` (mail that could not be applied: the host told, and the redrive).

May import: the kernel, `matches`, `telling`, `webhooks`, `season` (an Elimination Candidate's
acts come by mail too). Not `host` (the host's mail commands go through `service.commands`) or
`page`.
"""
