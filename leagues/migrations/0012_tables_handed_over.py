"""A marker: every table of the clubs, standings and tournaments rooms exists in its final shape
here, so the apps that take them over (`clubs`, then `standings` and `tournaments`) start after
it. Declared on this side (`run_before`) so that the rooms' migrations name no app above them."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("leagues", "0011_player_pot_balance")]

    run_before = [("clubs", "0001_initial")]

    operations: list[migrations.operations.base.Operation] = []
