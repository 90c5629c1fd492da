"""The models leave the `leagues` app's picture once the `clubs`, `standings` and `tournaments`
apps hold them (on the same tables): state only, nothing in the database is dropped. Models
that point at others go first."""

from django.db import migrations

# In an order where no model left behind points at one already gone.
MOVED = (
    "TournamentSitOut",
    "TournamentTable",
    "TournamentEntry",
    "TournamentRound",
    "Tournament",
    "GameSummary",
    "RatingPoint",
    "PlayerRating",
    "RatingSnapshot",
    "RebuildFailure",
    "PartnershipStanding",
    "PlayerStanding",
    "StandingsSnapshot",
    "InvitationUse",
    "Invitation",
    "PlayerMerge",
    "Membership",
    "Season",
    "Player",
    "Club",
)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0012_tables_handed_over"),
        ("scorecards", "0005_rooms_are_apps"),
        ("standings", "0001_initial"),
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name=name) for name in MOVED]
        )
    ]
