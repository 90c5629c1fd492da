"""The model registry of the `leagues` app: Django looks for an app's models in `<app>.models`,
so this module imports the models of the three rooms. Nothing else may import it: code imports a
model from its room (`leagues.clubs.models`, `leagues.standings.models`,
`leagues.tournaments.models`)."""

import leagues.clubs.models
import leagues.standings.models
import leagues.tournaments.models  # noqa: F401
