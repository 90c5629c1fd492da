"""Translation of the engine's messages, without making the engine depend on Django.

Every message meant for card players is written `_("... %(name)s ...") % {...}`: the English
literal sits directly inside `_()` so that xgettext (`manage.py makemessages`) extracts it, and
the placeholders are named so that a translation may put them in another order.

`_` calls the installed translator, the identity until one is set: the engine alone speaks
English. The web app installs Django's `gettext` (`ScorecardsConfig.ready`), so a message is
translated when its error is raised, into the language active at that moment (the request's).
"""

from __future__ import annotations

from collections.abc import Callable


def _identity(message: str) -> str:
    return message


_translator: Callable[[str], str] = _identity


def translator_set(fn: Callable[[str], str]) -> None:
    """Translate the engine's messages with `fn` (English msgid in, message out) from now on."""
    global _translator
    _translator = fn


def _(message: str) -> str:
    """`message` translated by the installed translator (unchanged by default)."""
    return _translator(message)
