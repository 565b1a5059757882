"""A season: a cast playing episodes (a Main Match, then each Elimination Candidate's Death Match)
until the Finals decide a champion (RULINGS.md, "Seasons").

The layer between `match` and `service`: the season's rules as data and pure functions over its
carried state, each transition returning the new state and the events to record. Nothing here
sees AWS, the clock or chance other than the season's seed.

- `settings`: the host's season settings, checked whole when the season is created.
- `shape`: how many players each game's episode removes, for the projected counts.
- `state`: the carried state (`SeasonState`), the events and what every transition returns.
- `outcome`: what a match's result says for the season (ToL, ECs, finalists, fixed pairs).
- `episode`: the Main Match's result and the spending of Tokens of Life.
- `guests`: the guests the host names for an episode whose game hosts them.
- `naming`: who may be named, and the naming by the EC, the host or the lot.
- `death_match`: the Death Matches, the next episode, the Finals and the champion.
- `waiting`: what the season waits on now.
- `requests`: the settings file of each match the season starts.
- `standing`: the season as everyone may see it.
- `replay`: the season again from its log and its matches' results.
- `errors`: the refusals, as types.
"""
