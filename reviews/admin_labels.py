"""A review's codes as the admin shows them, in the admin user's language.

The findings and suggestions stay in the review's own report language; these are the
labels around them (the report page, the review list, the DPO start page).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy, pgettext_lazy

ITEM_STATUS_LABELS = {
    "present": pgettext_lazy("review item", "present"),
    "weak": pgettext_lazy("review item", "weak"),
    "missing": pgettext_lazy("review item", "missing"),
    "not-applicable": pgettext_lazy("review item", "not applicable"),
    "needs-human-check": pgettext_lazy("review item", "needs a human check"),
}
VERDICT_LABELS = {
    "no-gaps": pgettext_lazy("review verdict", "no gaps"),
    "gaps": pgettext_lazy("review verdict", "gaps"),
    "needs-human-check": pgettext_lazy("review verdict", "needs a human check"),
}
DOCUMENT_TYPE_LABELS = {
    "DATA_PROCESSING_AGREEMENT": gettext_lazy("Data processing agreement (Art. 28)"),
    "PRIVACY_POLICY": gettext_lazy("Privacy notice (Art. 13/14)"),
}


def document_type_label(document_type: str) -> str:
    return str(DOCUMENT_TYPE_LABELS.get(document_type, document_type))


def verdict_label(verdict: str) -> str:
    return str(VERDICT_LABELS.get(verdict, verdict or "—"))
