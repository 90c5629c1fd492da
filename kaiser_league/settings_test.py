"""Fast settings for the test suite: the same module, with the slow parts swapped out."""

from kaiser_league.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# Eager unless a test run explicitly targets the real broker (CI's Redis pass sets this).
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", True)  # noqa: F405
# Derived data in the caller, at commit, as a worker would leave it: a test that wants the
# embedded default's background thread turns it on (tests/test_derived_background.py).
DERIVED_DATA_BACKGROUND = False
STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
LOGGING["root"] = {**LOGGING["root"], "level": "WARNING"}  # noqa: F405
# On SQLite the tests use a file in WAL mode, as a club server does, not Django's default shared
# in-memory database: threads then really take turns on the write lock (busy_timeout) and the
# concurrency tests prove what production does. One file per checkout, so worktrees never share.
if DATABASES["default"]["ENGINE"] == "kaiser_league.sqlite_queue":  # noqa: F405
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": env_str("SQLITE_TEST_PATH", str(BASE_DIR / "db.sqlite3.test"))  # noqa: F405
    }
# A kept page part (the sheet's, scorecards.sheet_parts; the frame's, leagues/templatetags/
# page_parts) found kept is drawn again too and must read the same: every test that shows a
# page twice checks that its parts' keys name all they show.
KEPT_PARTS_CHECK = True
