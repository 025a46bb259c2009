"""The offline review: term sets per item and language, patterns for weak wording.

Each item of the checklist (gdpr.review.checklist) is decided by rules over the document's
sentences (gdpr.review.segments): `present` when the sentences required are found, `weak`
when a weak-wording rule is met, `needs-human-check` when the item's subject is named but no
rule decides (a partial match is never guessed `present`), `missing` when the document does
not name it, `not-applicable` when its condition is not met. Every passage is read; the
passages retrieval ranked best for an item are preferred for its quotes. Every quote is a
sentence of a passage, verbatim, checked by `with_verified_quotes`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from gdpr.i18n import activate
from gdpr.i18n.detect import sentence_language
from gdpr.i18n.languages import DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES
from gdpr.review import findings
from gdpr.review.checklist import Checklist, Facet, Item, checklist
from gdpr.review.report import (
    Citation,
    ItemResult,
    ItemStatus,
    Passage,
    ReviewReport,
    with_verified_quotes,
)
from gdpr.review.segments import Unit, tighter_quote, units_of
from gdpr.review.suggestions import suggested_clause

# Document types a review knows a checklist for.
REVIEWABLE_TYPES: tuple[str, ...] = ("DATA_PROCESSING_AGREEMENT", "PRIVACY_POLICY")
MAX_CITATIONS = 3
_NEVER = 1 << 30


def item_queries(*, document_type: str, language: str) -> dict[str, list[str]]:
    """Per checklist item, the questions that retrieve its candidate passages in ``language``."""
    rules = checklist(document_type)
    return {
        item.id: list(item.queries.get(language) or item.queries.get(DEFAULT_LANGUAGE, ()))
        for item in rules.items
    }


def ruleset(document_type: str) -> str:
    """The rule set a review of `document_type` is made with (recorded on the report)."""
    return checklist(document_type).ruleset


def review_document(
    *,
    document_type: str,
    passages: Sequence[Passage],
    report_language: str,
    retrieved: Mapping[str, Sequence[int]] | None = None,
) -> ReviewReport:
    """Review the document made of ``passages`` (reading order) against its checklist.

    ``retrieved``: per item id, the indexes of the passages the hybrid search ranked best
    for that item's questions (best first); the rules prefer them for quotes but read every
    passage, so an item is never `missing` because retrieval ranked it low. Each item's
    suggestion is the clause our own template writes for it, in the report's language.
    """
    rules = checklist(document_type)
    units = units_of(passages)
    document_language = detect_language(units)
    reader = _Reader(rules, units)
    positions = {passage.index: position for position, passage in enumerate(passages)}
    with activate(report_language):
        items = tuple(
            replace(
                with_verified_quotes(
                    _decide(
                        rules,
                        item,
                        reader,
                        passages,
                        _ranks(retrieved, item.id, positions),
                    ),
                    passages,
                ),
                suggestion=suggested_clause(
                    document_type=document_type, item_id=item.id, language=report_language
                ),
            )
            for item in rules.items
        )
        notes = () if units else (findings.no_text(),)
    return ReviewReport(
        document_type=document_type,
        language=report_language,
        document_language=document_language,
        ruleset=rules.ruleset,
        items=items,
        method="rules",
        notes=notes,
    )


def detect_language(units: Sequence[Unit]) -> str:
    """The language most of the document's sentences are written in (English if none)."""
    votes: Counter[str] = Counter()
    for unit in units:
        if unit.is_heading:
            continue
        language = sentence_language(unit.text)
        if language in SUPPORTED_LANGUAGES:
            votes[language] += 1
    return votes.most_common(1)[0][0] if votes else DEFAULT_LANGUAGE


class _Reader:
    """Which sentences name which concepts, each answer computed once per review."""

    def __init__(self, rules: Checklist, units: Sequence[Unit]) -> None:
        self.rules = rules
        self.units = units
        self._memo: dict[tuple[str, str], bool] = {}

    def names(self, concept: str, folded: str) -> bool:
        key = (concept, folded)
        found = self._memo.get(key)
        if found is None:
            found = self.rules.concepts[concept].matches(folded)
            self._memo[key] = found
        return found

    def all_named(self, concepts: Sequence[str], none: Sequence[str], folded: str) -> bool:
        return all(self.names(c, folded) for c in concepts) and not any(
            self.names(c, folded) for c in none
        )

    def checker(self, concepts: Sequence[str], none: Sequence[str]) -> Callable[[str], bool]:
        def check(folded: str) -> bool:
            return self.all_named(concepts, none, folded)

        return check

    def facet_units(self, facet: Facet, check: Callable[[str], bool]) -> list[Unit]:
        """The sentences (never a heading alone) in which `facet` is found."""
        units = []
        for number, unit in enumerate(self.units):
            if unit.is_heading:
                continue
            if facet.heading and not self.all_named(facet.heading, (), unit.heading_folded):
                continue
            if facet.start and not self.all_named(facet.start, (), unit.start):
                continue
            folded = unit.folded
            if facet.span > 1 and not check(folded):
                following = self.units[number + 1 : number + facet.span]
                folded = " ".join(
                    [folded, *(u.folded for u in following if u.position == unit.position)]
                )
            if check(folded):
                units.append(unit)
        return units

    def anywhere(self, concepts: Sequence[str]) -> bool:
        return any(self.names(c, unit.folded) for unit in self.units for c in concepts)


def _ranks(
    retrieved: Mapping[str, Sequence[int]] | None, item_id: str, positions: Mapping[int, int]
) -> dict[int, int]:
    if not retrieved:
        return {}
    ranked = [positions[index] for index in retrieved.get(item_id, ()) if index in positions]
    return {position: rank for rank, position in enumerate(dict.fromkeys(ranked))}


def _decide(
    rules: Checklist,
    item: Item,
    reader: _Reader,
    passages: Sequence[Passage],
    ranks: Mapping[int, int],
) -> ItemResult:
    document_type = rules.document_type
    if not reader.units:
        return _result(item, ItemStatus.NEEDS_HUMAN_CHECK, findings.partial(document_type, item))
    if item.applies_when and not reader.anywhere(item.applies_when):
        return _result(
            item, ItemStatus.NOT_APPLICABLE, findings.not_applicable(document_type, item)
        )

    # The best quote lies in the item's own clause: a sentence under a heading whose title
    # names the item's subject ("Confidentiality", "7. Sub-processors"; not its references,
    # "(Art. 28(3)(c), 32)") comes before the same words
    # repeated elsewhere (an annex, a summary), then retrieval's ranking, then reading order.
    subject = item.anchor if item.anchor else (item.facets[0].all[:1] if item.facets else ())

    def preferred(unit: Unit) -> tuple[bool, int, int]:
        own = bool(subject) and reader.all_named(subject, (), unit.title_folded)
        return (not own, ranks.get(unit.position, _NEVER), unit.order)

    found: dict[str, list[Unit]] = {}
    checks: dict[str, Callable[[str], bool]] = {}
    for facet in item.facets:
        check = reader.checker(facet.all, facet.none)
        checks[facet.id] = check
        found[facet.id] = sorted(reader.facet_units(facet, check), key=preferred)

    def cite(facet_ids: Sequence[str]) -> tuple[Citation, ...]:
        return _citations(
            [(found[f][0], checks[f]) for f in facet_ids if found.get(f)]
            + [(unit, checks[f]) for f in facet_ids for unit in found.get(f, [])[1:]],
            passages,
        )

    for rule in item.weak:
        if rule.overrides and rule.met(found):
            return _result(
                item,
                ItemStatus.WEAK,
                findings.weak(document_type, item, rule.id),
                cite(rule.cite or rule.found or rule.any_found),
            )
    for alternative in item.present:
        if all(found.get(facet) for facet in alternative):
            return _result(
                item, ItemStatus.PRESENT, findings.present(document_type, item), cite(alternative)
            )
    for rule in item.weak:
        if not rule.overrides and rule.met(found):
            return _result(
                item,
                ItemStatus.WEAK,
                findings.weak(document_type, item, rule.id),
                cite(rule.cite or rule.found or rule.any_found),
            )
    partial = [facet.id for facet in item.facets if found[facet.id]]
    if partial:
        return _result(
            item, ItemStatus.NEEDS_HUMAN_CHECK, findings.partial(document_type, item), cite(partial)
        )
    anchor = (
        item.anchor if item.anchor is not None else (item.facets[0].all[:1] if item.facets else ())
    )
    if anchor:
        hits = sorted(
            (unit for unit in reader.units if reader.all_named(anchor, (), unit.folded)),
            key=preferred,
        )
        if hits:

            def named(folded: str) -> bool:
                return reader.all_named(anchor, (), folded)

            return _result(
                item,
                ItemStatus.NEEDS_HUMAN_CHECK,
                findings.partial(document_type, item),
                _citations([(unit, named) for unit in hits], passages, limit=2),
            )
    return _result(item, ItemStatus.MISSING, findings.missing(document_type, item))


def _result(
    item: Item, status: ItemStatus, finding: str, citations: tuple[Citation, ...] = ()
) -> ItemResult:
    return ItemResult(
        item_id=item.id,
        article=item.article,
        status=status,
        finding=finding,
        citations=citations,
    )


def _citations(
    candidates: Sequence[tuple[Unit, Callable[[str], bool]]],
    passages: Sequence[Passage],
    *,
    limit: int = MAX_CITATIONS,
) -> tuple[Citation, ...]:
    """At most `limit` quotes, each once: a quote inside another already chosen is dropped."""
    chosen: list[Citation] = []
    for unit, check in candidates:
        if len(chosen) >= limit:
            break
        quote = tighter_quote(unit.text, satisfied=check)
        if any(quote in citation.quote for citation in chosen):
            continue
        location = findings.location(passages[unit.position].location, unit.heading)
        chosen = [citation for citation in chosen if citation.quote not in quote]
        chosen.append(Citation(location=location, quote=quote))
    return tuple(chosen)


__all__ = [
    "REVIEWABLE_TYPES",
    "detect_language",
    "item_queries",
    "review_document",
    "ruleset",
]
