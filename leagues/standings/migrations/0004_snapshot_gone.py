from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('standings', '0003_standing_last_game'),
    ]

    operations = [
        migrations.AddField(
            model_name='standingssnapshot',
            name='gone',
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='standingssnapshot',
            name='deletions',
            field=models.PositiveIntegerField(db_default=0, default=0),
        ),
    ]
