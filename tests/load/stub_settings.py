"""Production settings with the hand-endpoint stand-in (tests/load/stub_urls.py) mounted, for
running bench/load_night.py end to end before issue #3 is merged:

    python bench/load_night.py --settings tests.load.stub_settings
"""

from kaiser_league.settings import *  # noqa: F403

ROOT_URLCONF = "tests.load.stub_urls"
