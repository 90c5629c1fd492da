"""The hall laptop's night, carried to the club's server: a finished tournament night played on
a laptop with no internet is exported as one bundle (`bundle.night_bundle`) and uploaded into the
club on the hosted server (`upload.night_upload`), where it becomes the same night with the
same games, and the season's standings are rebuilt from them.

The bundle (`kaiser-night/1`, JSON):

- `night`: the night's settings and name and day; `players`: every name that plays or sits out;
  `entries`, `rounds`, `tables`, `sitouts`: the night's structure, referring to players and
  games by position;
- `games`: each table's game as a `kaiser-game/1` record (with the day it was played), the
  idempotency key of each of its hands, and whether its round ended it;
- `digest`: SHA-256 of the rest (canonical JSON), so a file cut short or edited by hand is
  refused whole. It proves integrity, not authorship: who may upload is the club's server's
  decision (a director or owner of the club).

Uploading twice changes nothing: the hands' keys are unique on every server, so a night whose
games are there already is found, not added again.
"""
