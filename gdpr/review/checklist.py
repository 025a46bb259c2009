"""The review checklists (`data/<type>.json`): items, their facets, weak wording, conditions.

The words are data, in the concept vocabulary's term syntax (gdpr.concepts.vocabulary: folded,
word starts, "~", "=", "...", "!"), compiled once per process by `compile_concept` and
matched by `Concept.matches`, terms of every language at once: a German document is read with
the same rules as an English one, so the five languages give the same verdicts.

A file holds:
- `concepts`: named term sets `{name: {lang: [terms]}}` the items share;
- `items`, in report order, each with
  - `id`, `article` (English short form, "Art. 28(3)(h)");
  - `facets`: `{id: {"all": [concept...], "none": [concept...]}}`, a facet is found in a
    sentence that names every concept of `all` and none of `none`;
  - `present`: alternatives, each a list of facet ids that must all be found (default: every
    facet); the first alternative met makes the item `present`;
  - `weak`: rules `{id, found, any_found, absent, any_absent, cite, overrides}`: the item is
    `weak` (finding `id`, see gdpr.review.findings) when every facet of `found` is found, one
    of `any_found` is, none of `absent` is and one of `any_absent` is not; `overrides` rules
    apply even to an item otherwise present (audits "satisfied" by the processor's reports);
  - `anchor`: concepts naming the item's subject; a sentence naming them all (a heading
    counts) without any rule met makes the item `needs-human-check`, never `present`;
    absent, the item is `missing`. `[]`: an item found nowhere is `missing`;
  - `applies_when`: concepts, one of which the document must name for the item to apply
    (else `not-applicable`);
  - `queries`: `{lang: [questions]}` for the retrieval of candidate passages.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from gdpr.concepts.vocabulary import Concept, compile_concept

DATA_DIR = Path(__file__).resolve().parent / "data"
FILES: dict[str, str] = {
    "DATA_PROCESSING_AGREEMENT": "data-processing-agreement.json",
    "PRIVACY_POLICY": "privacy-policy.json",
}


@dataclass(frozen=True, slots=True)
class Facet:
    id: str
    all: tuple[str, ...]
    none: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class WeakRule:
    id: str
    found: tuple[str, ...] = ()
    any_found: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()
    any_absent: tuple[str, ...] = ()
    cite: tuple[str, ...] = ()
    overrides: bool = False

    def met(self, found: Mapping[str, object]) -> bool:
        return (
            all(found.get(facet) for facet in self.found)
            and (not self.any_found or any(found.get(facet) for facet in self.any_found))
            and not any(found.get(facet) for facet in self.absent)
            and (not self.any_absent or any(not found.get(facet) for facet in self.any_absent))
        )


@dataclass(frozen=True, slots=True)
class Item:
    id: str
    article: str
    facets: tuple[Facet, ...]
    present: tuple[tuple[str, ...], ...]
    weak: tuple[WeakRule, ...]
    anchor: tuple[str, ...] | None
    applies_when: tuple[str, ...]
    queries: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Checklist:
    document_type: str
    ruleset: str
    concepts: Mapping[str, Concept]
    items: tuple[Item, ...]

    def item(self, item_id: str) -> Item:
        for item in self.items:
            if item.id == item_id:
                return item
        raise KeyError(f"{self.document_type}: unknown item {item_id!r}")


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(value or ())


def _item(entry: Mapping[str, Any], concepts: Mapping[str, Concept]) -> Item:
    facets = tuple(
        Facet(id=name, all=_strings(spec.get("all")), none=_strings(spec.get("none")))
        for name, spec in entry.get("facets", {}).items()
    )
    weak = tuple(
        WeakRule(
            id=rule["id"],
            found=_strings(rule.get("found")),
            any_found=_strings(rule.get("any_found")),
            absent=_strings(rule.get("absent")),
            any_absent=_strings(rule.get("any_absent")),
            cite=_strings(rule.get("cite")),
            overrides=bool(rule.get("overrides", False)),
        )
        for rule in entry.get("weak", ())
    )
    present = tuple(tuple(alternative) for alternative in entry.get("present", ()))
    if not present:
        present = (tuple(facet.id for facet in facets),)
    anchor = entry.get("anchor")
    item = Item(
        id=entry["id"],
        article=entry["article"],
        facets=facets,
        present=present,
        weak=weak,
        anchor=None if anchor is None else tuple(anchor),
        applies_when=_strings(entry.get("applies_when")),
        queries={lang: tuple(qs) for lang, qs in entry.get("queries", {}).items()},
    )
    _check(item, concepts)
    return item


def _check(item: Item, concepts: Mapping[str, Concept]) -> None:
    # A typo in the data must fail at load, not silently never match.
    facet_ids = {facet.id for facet in item.facets}
    named = [name for facet in item.facets for name in (*facet.all, *facet.none)]
    named += [*(item.anchor or ()), *item.applies_when]
    unknown = sorted({name for name in named if name not in concepts})
    referenced = {f for alternative in item.present for f in alternative}
    for rule in item.weak:
        referenced |= {*rule.found, *rule.any_found, *rule.absent, *rule.any_absent, *rule.cite}
    if unknown or referenced - facet_ids:
        raise ValueError(
            f"{item.id}: unknown concepts {unknown} or facets {sorted(referenced - facet_ids)}"
        )


@cache
def checklist(document_type: str) -> Checklist:
    """The checklist of `document_type`, loaded and compiled once per process."""
    if document_type not in FILES:
        raise KeyError(f"No review checklist for {document_type!r}")
    data = json.loads((DATA_DIR / FILES[document_type]).read_text(encoding="utf-8"))
    concepts = {
        name: compile_concept(f"review:{document_type}", {"code": name, "terms": terms})
        for name, terms in data["concepts"].items()
    }
    return Checklist(
        document_type=document_type,
        ruleset=data["ruleset"],
        concepts=concepts,
        items=tuple(_item(entry, concepts) for entry in data["items"]),
    )
