"""The document's passages cut into quotable units: sentences (or table rows, list items).

Every unit is a slice of one passage's text, so a quote made of it is verbatim. Each unit
knows the nearest section heading before it, found in the text (numbered clauses "7.",
"Clause 7", "§ 5", "Article 5", "Art. 5", Markdown "## ..."), carried from passage to passage
in reading order. Neighbouring passages overlap (the chunker's overlap): a unit lying wholly
inside the part a passage shares with the one before it is the same text again and is left
out, so the same sentence is never quoted twice.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gdpr.concepts.vocabulary import fold
from gdpr.review.report import Passage


@dataclass(frozen=True, slots=True)
class Unit:
    """One sentence-like slice of a passage (verbatim) and what a quote needs to cite it."""

    position: int  # the passage's position in reading order (not its chunk index)
    text: str
    folded: str
    heading: str
    is_heading: bool
    order: int  # the unit's rank in reading order over the whole document
    # A list item is read together with the line that introduces it ("We keep your data:"
    # / "- Until you unsubscribe"): `folded` holds both, `text` (the quote) the item only.


# Words after which a full stop does not end a sentence ("Art. 28", "Inc.", "z. B.").
_ABBREVIATIONS = frozenset(
    [
        "art",
        "arts",
        "abs",
        "nr",
        "no",
        "nos",
        "lit",
        "vgl",
        "bzw",
        "ca",
        "inc",
        "ltd",
        "co",
        "corp",
        "para",
        "paras",
        "sec",
        "cf",
        "dr",
        "mr",
        "mrs",
        "ms",
        "st",
        "ziff",
        "gem",
        "ggf",
        "evtl",
        "usw",
        "sog",
        "ua",
        "bspw",
        "insb",
        "etc",
        "al",
        "núm",
        "num",
        "apdo",
        "pág",
        "pag",
        "cap",
        "sig",
        "spa",
        "srl",
        "sas",
        "gmbh",
        "ag",
        "inkl",
        "zzgl",
        "max",
        "min",
        "approx",
        "resp",
        "ss",
    ]
)
_SENTENCE_END = re.compile(r"[.!?][\"'»\u201d\u2019)\]]*\s+(?=[\"'«„“(\[]?[A-ZÀ-ÖØ-Þ0-9§])")
_LIST_MARK = re.compile(r"^\s*(?:[-*+•·▪\u2013]\s+|\d+[.)]\s+(?=\S)|[a-z][.)]\s+|\([a-z0-9]+\)\s+)")
_MARKDOWN_HEADING = re.compile(r"^\s*#{1,6}\s+(?P<title>.+?)\s*$")
_HEADING_KEYWORDS = (
    r"clause|section|article|art\.?|artikel|klausel|ziffer|abschnitt|anhang|annex|schedule"
    r"|appendix|anlage|cl[aá]usula|art[ií]culo|clausola|articolo|annexe|allegato|anexo"
    r"|apartado|sezione|paragraph|paragraphe|paragrafo|punto|point"
)
_NUMBERED_HEADING = re.compile(
    rf"^\s*(?:\*\*|__)?(?P<title>(?:§+\s*\d+[a-z]?|(?:{_HEADING_KEYWORDS})\s+[0-9IVXLC]+"
    r"(?:\.\d+)*\.?[a-z]?|\d{1,3}(?:\.\d+)*[.)]|\d{1,3}(?:\.\d+)+)(?:\s*[-\u2013\u2014:.)]\s*|\s+)?(?P<rest>.*?))\s*(?:\*\*|__)?\s*$",
    re.IGNORECASE,
)
_ANCHOR = re.compile(r"\s*\{#[A-Za-z0-9_-]+\}")
_MAX_HEADING = 100
_MAX_MARKDOWN_HEADING = 200
# Folding drops "@": an e-mail address or a web address is read as the words "email" and
# "website" too, so "Jane Roe, dpo@acme.example" gives contact details in every language.
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_WEB = re.compile(r"\bhttps?://\S+|\bwww\.\S+")


def heading_of(line: str) -> str | None:
    """The heading `line` is (cleaned for a location), or None when it is body text."""
    stripped = _ANCHOR.sub("", line).strip()
    if not stripped or len(stripped) > _MAX_MARKDOWN_HEADING:
        return None
    markdown = _MARKDOWN_HEADING.match(stripped)
    if markdown:
        return _clean_heading(markdown["title"])
    if len(stripped) > _MAX_HEADING:
        return None
    numbered = _NUMBERED_HEADING.match(stripped)
    if numbered:
        rest = numbered["rest"].strip(" *_")
        keyword = not stripped[:1].isdigit() and not stripped.startswith(("**", "__"))
        keyword = keyword or bool(re.match(rf"^\W*(?:§|{_HEADING_KEYWORDS})", stripped, re.I))
        # A numbered line is a heading when it is short and no sentence: "7. Sub-processors",
        # "Clause 7", "§ 5 Unterauftragsverhältnisse"; "7.1 The processor shall ..." is body.
        if rest and (rest.endswith((".", ";", ",")) or len(rest.split()) > 12):
            return None
        if not rest and not keyword:
            return None
        if rest and not rest[:1].isupper() and not rest[:1].isdigit() and not keyword:
            return None
        return _clean_heading(numbered["title"])
    letters = [char for char in stripped if char.isalpha()]
    if (
        len(letters) >= 4
        and stripped.upper() == stripped
        and not stripped.endswith((".", ";", ","))
        and len(stripped.split()) <= 8
    ):
        return _clean_heading(stripped)
    return None


def _clean_heading(title: str) -> str:
    title = _ANCHOR.sub("", title).strip().strip("*_").strip()
    return title.rstrip(":").strip()


def _sentence_spans(line: str) -> list[tuple[int, int]]:
    spans = []
    start = 0
    for match in _SENTENCE_END.finditer(line):
        before = line[start : match.start()].split()
        last = before[-1].lower().strip("(\"'") if before else ""
        if last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha()):
            continue
        spans.append((start, match.start() + 1))
        start = match.end()
    if start < len(line):
        spans.append((start, len(line)))
    return spans


def _overlap(previous: str, text: str) -> int:
    """How many leading characters of `text` repeat the end of `previous` (the chunk overlap)."""
    if not previous or not text:
        return 0
    probe = text[: min(len(text), 40)]
    start = previous.find(probe, max(0, len(previous) - len(text) - len(probe)))
    while start != -1:
        tail = previous[start:]
        if text.startswith(tail):
            return len(tail)
        start = previous.find(probe, start + 1)
    return 0


def units_of(passages: Sequence[Passage]) -> list[Unit]:
    """The units of every passage, in reading order, without the overlap's repetitions."""
    units: list[Unit] = []
    heading = ""
    previous_text = ""
    previous_headings: list[tuple[int, str]] = []
    previous_start_heading = ""
    for position, passage in enumerate(passages):
        text = passage.text
        shared = _overlap(previous_text, text)
        if shared:
            # The heading in effect where the shared part starts in the previous passage.
            cut = len(previous_text) - shared
            heading = previous_start_heading
            for at, earlier in previous_headings:
                if at < cut:
                    heading = earlier
        start_heading = heading
        headings: list[tuple[int, str]] = []
        offset = 0
        lead = ""
        for line in text.splitlines(keepends=True):
            line_start = offset
            offset += len(line)
            body = line.rstrip("\r\n")
            if not body.strip():
                continue
            title = heading_of(body)
            if title is not None:
                heading = title
                lead = ""
                headings.append((line_start, title))
                if line_start + len(body) <= shared:
                    continue
                units.append(_unit(position, body.strip(), heading, True, len(units)))
                continue
            is_item = bool(_LIST_MARK.match(body))
            context = lead if is_item else ""
            if not is_item:
                lead = body.strip() if body.rstrip().endswith(":") else ""
            for begin, end in _sentence_spans(body):
                if line_start + end <= shared:
                    continue
                piece = _LIST_MARK.sub("", body[begin:end], count=1).strip()
                if len(piece) < 3:
                    continue
                units.append(_unit(position, piece, heading, False, len(units), context))
        previous_text = text
        previous_headings = headings
        previous_start_heading = start_heading
    return units


def _unit(
    position: int, text: str, heading: str, is_heading: bool, order: int, lead: str = ""
) -> Unit:
    return Unit(
        position=position,
        text=text,
        folded=read(f"{lead} {text}" if lead else text),
        heading=heading,
        is_heading=is_heading,
        order=order,
    )


def read(text: str) -> str:
    """The folded text the rules match (e-mail and web addresses named as such)."""
    text = _EMAIL.sub(lambda match: f"{match[0]} email", text)
    return fold(_WEB.sub(lambda match: f"{match[0]} website", text))


def tighter_quote(text: str, *, satisfied: Callable[[str], bool]) -> str:
    """The shortest run of `text`'s clauses (cut at ";") that still satisfies the check.

    `satisfied(folded)` says whether a folded text still carries the evidence; a long
    sentence listing several obligations is quoted only where it speaks of the item.
    """
    check = satisfied
    if ";" not in text or len(text) < 300:
        return text
    bounds = [0] + [match.end() for match in re.finditer(r";\s+", text)] + [len(text) + 1]
    clauses = [(bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1)]
    best = text
    for i in range(len(clauses)):
        for j in range(i, len(clauses)):
            candidate = text[clauses[i][0] : min(clauses[j][1], len(text))].strip().rstrip(";")
            if len(candidate) >= len(best):
                break
            if check(read(candidate)):
                best = candidate
                break
    return best
