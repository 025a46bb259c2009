"""Art. 12(3): answer within one month, extendable by two months with notice in the first.

The computation lives in `gdpr.composition.periods` (Regulation 1182/71); these names stay for
the writers and tests that import them from here.
"""

from __future__ import annotations

from gdpr.composition.periods import ResponseDeadline, add_months, response_deadline

__all__ = ["ResponseDeadline", "add_months", "response_deadline"]
