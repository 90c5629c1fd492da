"""The values every decision of the policy reads: who asks (`Actor`) and what the answer is
(`Decision`). Plain data: the rooms build them from their rows, the policy reads no database."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    """Who asks, as the server knows it (never as the request says it).

    `role` is the actor's role in the club that owns the target, read now (None: not a member,
    or an ex-member); `user_id` the signed-in account (None: a phone with no account);
    `starter` whether this account started the game in question; `table_link` whether this
    browser holds the game's table link; `seat` the seat the server knows holds this person at
    the game (their own player's seat, else the phone's seat claim)."""

    user_id: int | None = None
    role: str | None = None
    starter: bool = False
    table_link: bool = False
    seat: int | None = None
    phone: str = ""  # this browser's phone id (kept in its session), "" when not known


@dataclass(frozen=True)
class Decision:
    """The answer of `may`: allowed or not, and when not, why (a sentence for the person) and
    a machine word for the JSON answer ("forbidden": no power; "closed": the target no longer
    takes this; others as the deciding module documents)."""

    allowed: bool
    reason: str = ""
    status: str = ""

    def __bool__(self) -> bool:
        return self.allowed


ALLOWED = Decision(True)


def refused(reason: str, status: str = "forbidden") -> Decision:
    return Decision(False, reason, status)
