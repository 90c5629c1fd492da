"""Club backups: one JSON document (`kaiser-club/1`) with everything a club needs to start again
on another server, made on SQLite or PostgreSQL and restored on either.

    data = club_export(club)                  # a read: plain dicts and lists, JSON-ready
    data = document_read(raw_bytes)           # a file's bytes, bounded before parsing
    club = club_import(data=data)             # checked whole, then written: all or nothing
    club = club_import(data=data, slug="regina-copy", name="Regina (copy)")
    club = club_import(data=data, accounts={"olga": "olga"})  # the operator maps an account

What the document holds:
- `club` (every setting, and since when confirmation is asked), `members` (usernames, names,
  e-mail, roles; never passwords), `players`, `seasons` (with their rules, and when closed),
  and `games`: each game's `kaiser-game/1` record with the day it was played (`played_on`,
  null when not known), season, table label, seated players and each hand's key, author, the
  phone that entered it, times and confirmation. Games
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
foreign key to what it points at: "user" (the username of a member or former member), "club"
(the restored club), or another section's key / "players" / "seasons" / "games", written as
the position in that list.
`rows(club)` gives the club's rows in a stable order; `fresh` gives a new value for a
globally unique field taken on this server already (an invitation token). A section may only
refer to sections declared before it. Adding a model is one more `Section(...)` in SECTIONS.

Accounts (`leagues.backup.accounts`): the document names its members' accounts and, in
`former_members`, the accounts of people no longer members that its rows link to (who started a
game, claimed a seat, corrected a hand), so those links come back as the same names. A restore
never gives an existing account anything by its name: each account is made new, with no usable
password, under its own name if free (ignoring case) or a new one (`olga-2`); an existing
account takes a document's place only when the operator maps it, and never a staff account.

A document is untrusted input. It is checked whole before the first write (`reading`,
`semantics`, `constraints`: every value as its column and the model's validators take it, the
models' check and unique constraints, rules the engine accepts for that kind of game, hand
versions that are kaiser-game/1 hands, short names the site's addresses would shadow, days and
moments within 1900-2999); `limits` bounds the file, its nesting and numbers before parsing, the
objects of a list and the versions of a hand. The write then goes in short transactions
(`batches`) so other clubs keep saving hands; should one fail, what the restore wrote is removed.

Every refusal is a BackupError naming the place (`tournaments[2].date: ...`) and writes nothing.
Passwords are not carried: restored accounts have none and set one through the ordinary
password reset page (`leagues.clubs.account_forms.PasswordResetForm` includes such accounts).
"""

from leagues.backup.export import club_export
from leagues.backup.fields import CLUB_FORMAT, BackupError
from leagues.backup.limits import document_read
from leagues.backup.restore import club_import

__all__ = ["CLUB_FORMAT", "BackupError", "club_export", "club_import", "document_read"]
