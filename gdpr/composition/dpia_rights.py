"""Which data subject rights apply, from the legal bases relied on (Art. 7(3), 15-22).

Local to the DPIA for now: the privacy-notice work adds `rights.py`; the lead unifies them.
Rules: portability (Art. 20(1)) only for consent (Art. 6(1)(a) or 9(2)(a)) or contract, with
processing by automated means; objection (Art. 21(1)) only for Art. 6(1)(e) or (f), and
always for direct marketing (Art. 21(2)); withdrawal of consent (Art. 7(3)) wherever consent
is a basis (including explicit consent under Art. 9(2)(a)).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_DIRECT_MARKETING = re.compile(r"\bmarketing\b|\bnewsletter|\bprospect", re.IGNORECASE)
_ALWAYS = (
    "access (Art. 15)",
    "rectification (Art. 16)",
    "erasure (Art. 17)",
    "restriction of processing (Art. 18)",
)


def is_direct_marketing(purposes: Iterable[object]) -> bool:
    """True when a purpose names direct marketing (newsletter, prospection)."""
    return any(_DIRECT_MARKETING.search(str(purpose)) for purpose in purposes)


def applicable_rights(
    *,
    codes: set[str],
    explicit_consent: bool,
    automated_means: bool,
    direct_marketing: bool,
) -> list[str]:
    """The rights data subjects can exercise, each with its article."""
    rights = list(_ALWAYS)
    # Art. 20(1)(a): consent under Art. 6(1)(a) or 9(2)(a), or a contract.
    if automated_means and (codes & {"consent", "contract"} or explicit_consent):
        rights.append("data portability (Art. 20)")
    if codes & {"public-task", "legitimate-interests"}:
        rights.append("object (Art. 21(1)) on grounds relating to their particular situation")
    if direct_marketing:
        rights.append("object at any time to direct marketing, without giving reasons (Art. 21(2))")
    if "consent" in codes or explicit_consent:
        rights.append("withdraw consent at any time (Art. 7(3)), without affecting past processing")
    return rights
