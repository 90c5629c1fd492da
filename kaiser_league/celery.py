"""The Celery application. Settings come from Django's settings module (CELERY_* names)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiser_league.settings")

app = Celery("kaiser_league")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
