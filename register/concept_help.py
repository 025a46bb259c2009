"""What the admin tells the DPO about concept codes: the codes a list entry may name, and
what each entry of an activity is recognised as.

A data category or a measure is a text (recognised in any language by `gdpr.concepts`) or an
object naming its concept, `{"name": ..., "category": <data-category code>}` or
`{"name": ..., "family": <security-measure or rights-measure code>}`, exactly as in the API.
The codes and their labels are read from the concept schemes when the form is built (a code
added to a scheme is offered without a change here); labels are shown in the admin user's
language where the rules engine has them translated.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from gdpr.composition.assessments.dpia_rights_risks import RIGHTS_MEASURE_LABELS
from gdpr.composition.assessments.security_measures import FAMILY_BY_KEY, measure_families
from gdpr.composition.special_categories import (
    ART_9,
    ART_10,
    CONCEPT_LABELS,
    classify,
    is_absence,
)
from gdpr.concepts import scheme, scheme_names
from gdpr.i18n import SUPPORTED_LANGUAGES, activate, localize_citations
from gdpr.i18n import _ as gdpr_gettext
from register.concept_inputs import DATA_CATEGORY_SCHEMES, MEASURE_SCHEMES

# The article a data-category group puts an entry under (English form, localised when shown).
_GROUP_ARTICLES = {ART_9: "Art. 9(1)", ART_10: "Art. 10"}
_EXAMPLES = {
    "category": {"name": "Gesundheitsdaten", "category": "health"},
    "family": {"name": "Zutrittskontrolle", "family": "access-control"},
}


def _language() -> str:
    language = (translation.get_language() or "en").split("-")[0]
    return language if language in SUPPORTED_LANGUAGES else "en"


@contextmanager
def _engine_language() -> Iterator[str]:
    """The rules engine's labels in the admin user's language."""
    with activate(_language()) as language:
        yield language


def _label(scheme_name: str, code: str) -> str:
    # The labels the documents use (translated); the scheme's own English label otherwise.
    if scheme_name == "data-category" and code in CONCEPT_LABELS:
        return gdpr_gettext(CONCEPT_LABELS[code])
    if scheme_name == "security-measure" and code in FAMILY_BY_KEY:
        return gdpr_gettext(FAMILY_BY_KEY[code].label)
    if scheme_name == "rights-measure" and code in RIGHTS_MEASURE_LABELS:
        return gdpr_gettext(RIGHTS_MEASURE_LABELS[code])
    return scheme(scheme_name).concept(code).label


def codes_with_labels(schemes: Iterable[str]) -> list[tuple[str, str]]:
    """(code, label) of every concept of the schemes that exist, in the schemes' order."""
    present = [name for name in schemes if name in scheme_names()]
    with _engine_language():
        return [
            (concept.code, _label(name, concept.code))
            for name in present
            for concept in scheme(name).concepts
        ]


def _codes_help(*, lead: str, key: str, schemes: Iterable[str]) -> SafeString:
    example = json.dumps(_EXAMPLES[key], ensure_ascii=False)
    codes = format_html_join("; ", "<code>{}</code>: {}", codes_with_labels(schemes))
    return format_html(
        "{} {}", lead, format_html(
            gettext("A text (recognised in any language), or an object naming its concept:"
                    " {example}. The codes: {codes}."),
            example=format_html("<code>{}</code>", example),
            codes=codes,
        )
    )  # fmt: skip


def data_category_help() -> SafeString:
    """Help text of `data_categories` / `special_categories`: the object form and the codes."""
    return _codes_help(
        lead=gettext("A JSON list of data categories."),
        key="category",
        schemes=DATA_CATEGORY_SCHEMES,
    )


def measure_help() -> SafeString:
    """Help text of `security_measures`: the object form and the families."""
    return _codes_help(
        lead=gettext("A JSON list of measures."), key="family", schemes=MEASURE_SCHEMES
    )


def _name(entry: Any) -> str:
    if isinstance(entry, dict):
        return str(entry.get("name") or "")
    return str(entry)


def category_recognised(entry: Any, *, declared_special: bool = False) -> str:
    """'Gesundheitsdaten → health (Art. 9(1))', 'Xylophon → needs classification'."""
    if declared_special and is_absence(entry):
        none = gettext("no special category processed")
        return f"{_name(entry)} → {none}"
    found = classify(entry, declared_special=declared_special)
    with _engine_language() as language:
        concepts = []
        for code in found.codes:
            group = scheme("data-category").concept(code).group
            article = _GROUP_ARTICLES.get(group or "")
            concepts.append(
                f"{code} ({localize_citations(article, language)})" if article else code
            )
        if concepts:
            return f"{found.wording} → {', '.join(concepts)}"
        if found.declared_special:
            special = localize_citations("Art. 9(1)", language)
            return f"{found.wording} → " + gettext(
                "special category (%(article)s), concept not recognised"
            ) % {"article": special}
    needed = gettext("needs classification")
    return f"{found.wording} → {needed}"


def measure_recognised(entry: Any) -> str:
    """'Verschlüsselung → encryption', 'Kaffeemaschine → no family recognised'."""
    families = [
        code
        for name in MEASURE_SCHEMES
        if name in scheme_names()
        for code in scheme(name).codes
        if code in measure_families([entry], scheme=name)
    ]
    shown = ", ".join(families) if families else gettext("no family recognised")
    return f"{_name(entry)} → {shown}"
