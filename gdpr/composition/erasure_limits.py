"""Art. 30(1)(f): a time limit for erasure per category of data, and when it starts to run.

"72 hours" says how long, not from when: a limit needs its starting event ("after the end of
the contract", "from collection"). Each data category listed is matched to the retention rule
naming it; a category without a rule, or a rule without a start, is left to be completed.
"""

from __future__ import annotations

import re

from gdpr.composition.context import CompositionContext
from gdpr.composition.inputs import RetentionRule
from gdpr.composition.markdown import escape_inline, join_blocks, table, to_be_completed
from gdpr.concepts import recognise
from gdpr.i18n import _


def _split(rule: RetentionRule) -> tuple[str | None, str]:
    """(category, time limit) of a rule, reading 'Category: limit' in a plain text."""
    if rule.text is None:
        limit = "; ".join(part for part in (rule.period, rule.criteria) if part)
        return rule.category, limit
    category, colon, limit = rule.text.partition(":")
    return (category.strip(), limit.strip()) if colon else (None, rule.text)


_GENERIC = frozenset({"data", "personal", "information", "details", "records"})


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-zà-ÿ]{3,}", text.lower()) if w not in _GENERIC}


def _matches(category: str, rule_category: str | None) -> bool:
    """'GPS position' ~ 'Raw GPS positions', 'Driver ID' ~ 'Driver master data'."""
    if not rule_category:
        return False
    a, b = category.strip().lower(), rule_category.strip().lower()
    if a in b or b in a:
        return True
    words_a, words_b = _words(a), _words(b)
    stems_a = {w.rstrip("s") for w in words_a}
    return bool(stems_a & {w.rstrip("s") for w in words_b})


def _start(limit: str) -> str:
    # The event the period runs from, in any language (gdpr/concepts retention-period.json).
    return _("stated") if "start" in recognise("retention-period", limit) else _("not stated")


def write_erasure_limits(context: CompositionContext) -> str:
    given: list[RetentionRule] = context.items("retentionPeriods")
    rules = [_split(rule) for rule in given]
    if not rules:
        return _("Time limits for erasure: ") + to_be_completed(
            _("the erasure time limit of each data category and when it starts to run")
        )
    categories = [str(c) for c in context.items("dataCategories")]
    rows, uncovered, used = [], [], set()
    for category in categories:
        found = next(
            (i for i, (name, _limit) in enumerate(rules) if _matches(category, name)), None
        )
        if found is None:
            uncovered.append(category)
            rows.append((category, _("not stated"), _("not stated")))
            continue
        used.add(found)
        rows.append((category, str(given[found]), _start(rules[found][1])))
    for index, (name, limit) in enumerate(rules):
        if index not in used:
            rows.append((name or _("all data"), str(given[index]), _start(limit)))
    no_start = [row[0] for row in rows if row[2] == _("not stated") and row[0] not in uncovered]
    return join_blocks(
        _("Time limits for erasure per category of data (Art. 30(1)(f)):"),
        table((_("Data category"), _("Time limit as stated"), _("Start of the period")), rows),
        to_be_completed(_("the erasure time limit of: ") + ", ".join(map(escape_inline, uncovered)))
        if uncovered
        else None,
        to_be_completed(
            _(
                "when the period starts to run (e.g. 'after the end of the contract', 'from"
                " collection') for: "
            )
            + ", ".join(map(escape_inline, no_start))
        )
        if no_start
        else None,
    )
