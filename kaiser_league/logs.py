"""One log format for every process (Django, gunicorn, Celery): UTC timestamps with their zone
and the request id on each line, as text or, with LOG_FORMAT=json, one JSON object per line.

`request_id_var` holds the id of the request (or task) being served; `RequestIdFilter` copies it
onto every record, so a line logged anywhere below a view carries it without being passed it."""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

request_id_var: ContextVar[str] = ContextVar("request_id", default="-")

TEXT_FORMAT = "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"


def utc_timestamp(created: float) -> str:
    """`created` (seconds since the epoch) as ISO 8601 in UTC with its zone, to the millisecond:
    2026-11-25T17:05:01.123+00:00."""
    return datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds")


class RequestIdFilter(logging.Filter):
    """Give every record a `request_id` (the current request's, or "-" outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", None):
            record.request_id = request_id_var.get()
        return True


class UtcFormatter(logging.Formatter):
    """Text lines, their time in UTC with the zone whatever the server's local time."""

    def __init__(self, fmt: str | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(fmt or TEXT_FORMAT, *args, **kwargs)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return utc_timestamp(record.created)

    def format(self, record: logging.LogRecord) -> str:
        # A handler without the filter (a library's own) still formats.
        if not hasattr(record, "request_id"):
            record.request_id = request_id_var.get()
        return super().format(record)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, with zone), level, logger, request_id, message, and
    the traceback as `exc_info` when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        body: dict[str, Any] = {
            "time": utc_timestamp(record.created),
            "level": record.levelname,
            "logger": record.name,
            "request_id": getattr(record, "request_id", None) or request_id_var.get(),
            "message": record.getMessage(),
        }
        if record.exc_info:
            body["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(body, ensure_ascii=False)


def logging_config(
    *, log_format: str = "text", level: str = "INFO", mail_admins: bool = False
) -> dict[str, Any]:
    """The `logging.config.dictConfig` of every process: Django's LOGGING, and gunicorn's
    `logconfig_dict` (its own loggers included). `log_format`: "text" or "json". `mail_admins`
    (Django's processes only): server errors also mailed to ADMINS, when DEBUG is off.

    Django's own handlers are replaced (its console handler and runserver's, each with a format
    of its own), so that every line of every process is written once, in this format."""
    if log_format not in {"text", "json"}:
        raise ValueError(f"LOG_FORMAT must be text or json, got {log_format!r}")
    formatter = (
        "kaiser_league.logs.JsonFormatter"
        if log_format == "json"
        else ("kaiser_league.logs.UtcFormatter")
    )
    config: dict[str, Any] = {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "kaiser_league.logs.RequestIdFilter"}},
        "formatters": {"line": {"()": formatter}},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "line",
                "filters": ["request_id"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "django.db.backends": {"level": "WARNING"},
            "axes": {"level": "WARNING"},
            # gunicorn's loggers write through ours (it adds no handler of its own when given
            # a dictConfig); propagate so that each line is written once, by the root.
            "gunicorn.error": {"level": level, "propagate": True},
            "gunicorn.access": {"level": level, "propagate": True},
            "django": {"handlers": [], "level": level, "propagate": True},
            "django.server": {"handlers": [], "level": level, "propagate": True},
        },
    }
    if mail_admins:
        config["filters"]["require_debug_false"] = {"()": "django.utils.log.RequireDebugFalse"}
        config["handlers"]["mail_admins"] = {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false"],
        }
        config["loggers"]["django"]["handlers"] = ["mail_admins"]
    return config
