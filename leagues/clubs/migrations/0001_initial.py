"""The models of the clubs room as an app of their own, on the tables the `leagues` app made
(`db_table` keeps their names): nothing in the database changes but the content types' label."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


MODELS = ('club', 'invitation', 'invitationuse', 'membership', 'player', 'playermerge', 'season')
LABEL = 'clubs'


def _relabel(apps, schema_editor, old: str, new: str) -> None:
    """Move this app's content types from the label `old` to `new`: the same rows, ids kept, so
    the admin's history and the permissions given to accounts follow the models."""
    content_type = apps.get_model("contenttypes", "ContentType")
    rows = content_type.objects.using(schema_editor.connection.alias)
    for model in MODELS:
        # A row under the new label already (a `migrate` of another app ran first and made
        # it): keep it and leave the old one, which `remove_stale_contenttypes` clears.
        if not rows.filter(app_label=new, model=model).exists():
            rows.filter(app_label=old, model=model).update(app_label=new)


def content_types_forward(apps, schema_editor) -> None:
    _relabel(apps, schema_editor, "leagues", LABEL)


def content_types_back(apps, schema_editor) -> None:
    _relabel(apps, schema_editor, LABEL, "leagues")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # The tables exist: the `leagues` app's migrations made them (its 0011 runs before
        # `clubs` 0001). Only Django's picture of the models moves.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Club',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=100, verbose_name='name')),
                        ('slug', models.SlugField(max_length=60, unique=True, verbose_name='short name')),
                        ('standings_public', models.BooleanField(default=False, help_text="Anyone with the link may see the club's standings.", verbose_name='public standings')),
                        ('hands_need_confirmation', models.BooleanField(default=False, help_text='A player of the other side confirms each hand before the game counts.', verbose_name='hands need confirming')),
                        ('confirmation_since', models.DateTimeField(blank=True, null=True)),
                        ('pot_per_set', models.PositiveIntegerField(blank=True, null=True, verbose_name='pot per set bid')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        'verbose_name': 'club',
                        'verbose_name_plural': 'clubs',
                        'db_table': 'leagues_club',
                        'ordering': ['name'],
                        'constraints': [models.CheckConstraint(condition=models.Q(('pot_per_set__lte', 100000)), name='club_pot_per_set_bounded')],
                    },
                ),
                migrations.CreateModel(
                    name='Invitation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('token', models.CharField(max_length=43, unique=True)),
                        ('role', models.CharField(choices=[('owner', 'Owner'), ('director', 'Director'), ('scorer', 'Scorer'), ('member', 'Member')], default='member', max_length=10, verbose_name='role')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('expires_at', models.DateTimeField()),
                        ('revoked', models.BooleanField(default=False)),
                        ('max_uses', models.PositiveSmallIntegerField(default=1, verbose_name='uses')),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invitations', to='clubs.club')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'leagues_invitation',
                        'ordering': ['-created_at'],
                    },
                ),
                migrations.CreateModel(
                    name='InvitationUse',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('username', models.CharField(max_length=150)),
                        ('at', models.DateTimeField(auto_now_add=True)),
                        ('invitation', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='uses', to='clubs.invitation')),
                        ('user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'leagues_invitationuse',
                        'ordering': ['invitation', 'at'],
                    },
                ),
                migrations.CreateModel(
                    name='Membership',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('role', models.CharField(choices=[('owner', 'Owner'), ('director', 'Director'), ('scorer', 'Scorer'), ('member', 'Member')], default='member', max_length=10, verbose_name='role')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='clubs.club')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name': 'membership',
                        'verbose_name_plural': 'memberships',
                        'db_table': 'leagues_membership',
                    },
                ),
                migrations.CreateModel(
                    name='Player',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=80, verbose_name='name')),
                        ('name_key', models.CharField(editable=False, max_length=400)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='players', to='clubs.club')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='players', to=settings.AUTH_USER_MODEL, verbose_name='account')),
                    ],
                    options={
                        'verbose_name': 'player',
                        'verbose_name_plural': 'players',
                        'db_table': 'leagues_player',
                        'ordering': ['name'],
                    },
                ),
                migrations.CreateModel(
                    name='PlayerMerge',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('merged_name', models.CharField(max_length=80, verbose_name='merged name')),
                        ('merged_player_id', models.PositiveBigIntegerField()),
                        ('by_name', models.CharField(blank=True, max_length=150)),
                        ('moved', models.JSONField(blank=True, default=dict)),
                        ('at', models.DateTimeField(auto_now_add=True)),
                        ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='player_merges', to='clubs.club')),
                        ('kept', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='merges', to='clubs.player')),
                    ],
                    options={
                        'db_table': 'leagues_playermerge',
                        'ordering': ['-at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='Season',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=100, verbose_name='name')),
                        ('starts_on', models.DateField(verbose_name='starts on')),
                        ('ends_on', models.DateField(blank=True, null=True, verbose_name='ends on')),
                        ('rules', models.JSONField(blank=True, default=dict, verbose_name='rules')),
                        ('closed_at', models.DateTimeField(blank=True, null=True, verbose_name='closed at')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seasons', to='clubs.club')),
                    ],
                    options={
                        'verbose_name': 'season',
                        'verbose_name_plural': 'seasons',
                        'db_table': 'leagues_season',
                        'ordering': ['-starts_on', 'name'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='invitation',
                    constraint=models.CheckConstraint(condition=models.Q(('role__in', ['owner', 'director', 'scorer', 'member'])), name='invitation_role_valid'),
                ),
                migrations.AddConstraint(
                    model_name='invitation',
                    constraint=models.CheckConstraint(condition=models.Q(('role', 'owner'), _negated=True), name='invitation_not_owner'),
                ),
                migrations.AddConstraint(
                    model_name='invitation',
                    constraint=models.CheckConstraint(condition=models.Q(('max_uses__gte', 1), ('max_uses__lte', 100)), name='invitation_max_uses_range'),
                ),
                migrations.AddConstraint(
                    model_name='membership',
                    constraint=models.UniqueConstraint(fields=('club', 'user'), name='membership_once_per_club'),
                ),
                migrations.AddConstraint(
                    model_name='membership',
                    constraint=models.CheckConstraint(condition=models.Q(('role__in', ['owner', 'director', 'scorer', 'member'])), name='membership_role_valid'),
                ),
                migrations.AddConstraint(
                    model_name='player',
                    constraint=models.UniqueConstraint(fields=('club', 'name_key'), name='player_name_key_unique'),
                ),
                migrations.AddConstraint(
                    model_name='player',
                    constraint=models.UniqueConstraint(condition=models.Q(('user__isnull', False)), fields=('club', 'user'), name='player_account_once_per_club'),
                ),
                migrations.AddConstraint(
                    model_name='player',
                    constraint=models.CheckConstraint(condition=models.Q(('name', ''), _negated=True), name='player_name_not_empty'),
                ),
                migrations.AddConstraint(
                    model_name='season',
                    constraint=models.CheckConstraint(condition=models.Q(('ends_on__isnull', True), ('ends_on__gte', models.F('starts_on')), _connector='OR'), name='season_ends_after_start'),
                ),
                migrations.AddConstraint(
                    model_name='season',
                    constraint=models.UniqueConstraint(fields=('club', 'name'), name='season_name_unique_in_club'),
                ),
            ],
        ),
        migrations.RunPython(content_types_forward, content_types_back),
    ]
