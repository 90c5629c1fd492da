"""Club backups: one JSON document (`kaiser-club/1`) with everything a club needs to start again
on another server, made on SQLite or PostgreSQL and restored on either.

    data = club_export(club)                  # a read: plain dicts and lists, JSON-ready
    club = club_import(data=data)             # a write, in one transaction: all or nothing
    club = club_import(data=data, slug="regina-copy", name="Regina (copy)")

What the document holds:
- `club` (every setting, and since when confirmation is asked), `members` (usernames, names,
  e-mail, roles; never passwords), `players`, `seasons` (with their rules, and when closed),
  and `games`: each game's `kaiser-game/1` record with the day it was played (`played_on`,
  null when not known), season, table label, seated players and each hand's key, author,
  times and confirmation. Games
  are restored through the game services (`game_start`, `hand_record`), so a restored game is
  scored by the same code as one played at the table; standings and ratings, derived data, are
  then rebuilt from them and come out equal.
- the SECTIONS of `leagues.backup.sections`, one declaration per model: tournament nights
  (entries, rounds, tables, sit-outs; cancelled nights too), invitations, the hands' version
  history (corrections, undos, confirmations), and the trace of players merged into one.

The contract of a section (`Section`): `key` names its list in the document; `model` and
`fields` are the columns copied as they are, each checked by the kind of its model field (text
within its max_length and free of NUL and lone surrogates, integers within the column's range,
choices among the model's, dates, times with their offset, booleans, JSON); `refs` maps a
foreign key to what it points at: "user" (a member's username), "club" (the restored club), or
another section's key / "players" / "seasons" / "games", written as the position in that list.
`rows(club)` gives the club's rows in a stable order; `fresh` gives a new value for a
globally unique field taken on this server already (an invitation token). A section may only
refer to sections declared before it. Adding a model is one more `Section(...)` in SECTIONS.

Every refusal is a BackupError naming the place (`tournaments[2].date: ...`) and writes nothing.
Passwords are not carried: restored accounts have none and set one through the ordinary
password reset page (`leagues.clubs.account_forms.PasswordResetForm` includes such accounts).
"""

from leagues.backup.export import club_export
from leagues.backup.fields import CLUB_FORMAT, BackupError
from leagues.backup.restore import club_import

__all__ = ["CLUB_FORMAT", "BackupError", "club_export", "club_import"]
