"""Who may do what, to what, now: the one decision behind every write a service makes and every
button a page offers.

`may(actor, action, target)` answers with a `Decision`. It combines, each written once:

- the actor's power: the role table of `leagues.clubs.roles` (plus what starting a game and
  holding its table link give);
- the target's state: what it accepts now, handed in by its room as plain values (a game's
  facts from scorecards, a night's from tournaments), so this package imports no room above
  the clubs;
- the action's own conditions (a confirmation comes from the other side of the table, ...).

Services call it on the locked picture and raise its refusal; views and templates call it to
offer exactly the buttons the services accept. One module per kind of target (`games`,
`clubs`, `nights`), each with its facts class and a `decide(actor, action, facts)`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from leagues.clubs.policy.base import ALLOWED, Actor, Decision, refused

_DECIDERS: dict[type, Callable[[Actor, str, Any], Decision]] = {}


def decider_register(facts_type: type, decide: Callable[[Actor, str, Any], Decision]) -> None:
    """Install the decision for one kind of target (done by the modules of this package)."""
    _DECIDERS[facts_type] = decide


def may(actor: Actor, action: str, target: Any) -> Decision:
    """Whether `actor` may take `action` on `target` (the facts of a game, a club, a night...)
    now, and why not. An unknown kind of target or action is refused."""
    decide = _DECIDERS.get(type(target))
    if decide is None:
        raise TypeError(f"no policy for {type(target).__name__}")
    return decide(actor, action, target)


__all__ = ["ALLOWED", "Actor", "Decision", "decider_register", "may", "refused"]
