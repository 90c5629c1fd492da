"""The Celery application. Settings come from Django's settings module (CELERY_* names)."""

import os

from celery import Celery
from celery.signals import celeryd_init, task_postrun, task_prerun, worker_process_init

from kaiser_league.logs import request_id_var

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiser_league.settings")

app = Celery("kaiser_league")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _in_worker(task: object) -> bool:
    # An eager task runs inside the request that queued it, whose id its lines keep.
    return not getattr(getattr(task, "request", None), "is_eager", False)


@task_prerun.connect
def _task_request_id(task_id: str | None = None, task: object = None, **kwargs: object) -> None:
    """A task's log lines (in a worker) carry its id where a request's carry the request id."""
    if _in_worker(task):
        request_id_var.set(f"task-{task_id}" if task_id else "-")


@task_postrun.connect
def _task_request_id_forget(task: object = None, **kwargs: object) -> None:
    if _in_worker(task):
        request_id_var.set("-")


@celeryd_init.connect
@worker_process_init.connect
def _worker_budget(**kwargs: object) -> None:
    """The worker's tasks (rebuilds, backups) hold no web worker: each statement takes the
    commands' time budget, not a request's (kaiser_league/budget.py)."""
    from django.conf import settings

    from kaiser_league.budget import budget_set

    budget_set(settings.DB_COMMAND_STATEMENT_TIMEOUT)
