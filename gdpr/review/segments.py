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
    heading_folded: str
    # The heading's title without the provisions it cites ("Confidentiality", not "(Art. 32)").
    title_folded: str
    # The first words of the sentence (without its clause number): where a label stands.
    start: str
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
_LIST_MARK = re.compile(r"^\s*(?:[-+*•·▪\u2013]\s+|\d+[.)]\s+(?=\S)|[a-z][.)]\s+|\([a-z0-9]+\)\s+)")
_MARKDOWN_HEADING = re.compile(r"^\s*#{1,6}\s+(?P<title>.+?)\s*$")
_HEADING_KEYWORDS = (
    r"clause|section|article|art\.?|artikel|klausel|ziffer|abschnitt|anhang|annex|schedule"
    r"|appendix|anlage|cl[aá]usula|art[ií]culo|clausola|articolo|annexe|allegato|anexo"
    r"|apartado|sezione|paragraph|paragraphe|paragrafo|punto|point"
)
# Clauses numbered in words, as Spanish contracts do ("Séptima. Derechos de los interesados",
# "Cláusula Undécima"); after a keyword, or alone followed by a full stop or a dash.
_ORDINALS = (
    r"(?:decimo|d[eé]cimo)?(?:primer[ao]?|segund[ao]|tercer[ao]?|cuart[ao]|quint[ao]|sext[ao]"
    r"|s[eé]ptim[ao]|octav[ao]|noven[ao])|d[eé]cim[ao]|und[eé]cim[ao]|duod[eé]cim[ao]"
    r"|vig[eé]sim[ao]"
)
_NUMBERED_HEADING = re.compile(
    rf"^\s*(?:\*\*|__)?(?P<title>(?:§+\s*\d+[a-z]?|(?:{_ORDINALS})(?=\s*[.\-\u2013\u2014:])"
    rf"|(?:{_HEADING_KEYWORDS})\s+(?:{_ORDINALS}\b|[0-9IVXLC]+"
    r"(?:\.\d+)*\.?[a-z]?)|\d{1,3}(?:\.\d+)*[.)]|\d{1,3}(?:\.\d+)+)(?:\s*[-\u2013\u2014:.)]\s*|\s+)?(?P<rest>.*?))\s*(?:\*\*|__)?\s*$",
    re.IGNORECASE,
)
_ANCHOR = re.compile(r"\s*\{#[A-Za-z0-9_-]+\}")
# A parenthesised reference at the end of a line (one level of nested parentheses, as in
# "(Art. 28(3)(b))"), and the words a legal reference starts with.
_TRAILING_REFERENCE = re.compile(r"\s*\((?P<inner>(?:[^()]|\([^()]*\))*)\)$")
_REFERENCE_START = re.compile(
    rf"^\s*(?:§|(?:{_HEADING_KEYWORDS}|arts?|decision|beschluss|d[ée]cision"
    r"|decisi[oó]n|decisione)\b)",
    re.IGNORECASE,
)
# The most words of a title before its references ("Instructions that infringe data
# protection law (Art. 28(3) last subparagraph)").
_TITLE_WORDS = 12
# A document wraps its paragraphs when at least _MARGIN_LINES of its lines end within
# _MARGIN of the longest (a line of a page: between the two widths below), the margin being
# where they end; a line is full when the next word would have made it longer than
# _FULL_LINE of that margin (proportional fonts: the characters a line holds vary).
_CLAUSE_START = re.compile(
    rf"^\s*(?:§\s*\d+|\d{{1,3}}(?:\.\d+)*[.)](?:\s|$)|\d{{1,3}}(?:\.\d+)+\s"
    rf"|(?:{_HEADING_KEYWORDS})\s+[0-9IVXLC]+[a-z]?(?:\.\d+)*\s*[-\u2013\u2014:.)](?:\s|$))",
    re.IGNORECASE,
)
_MIN_WRAP_WIDTH = 40
_MAX_WRAP_WIDTH = 160
_MARGIN = 0.85
_MARGIN_LINES = 3
_FULL_LINE = 0.9
_MAX_HEADING = 100
# A label is in the first words of a sentence, after its clause number ("2 5", "b 4").
_NUMBERING = re.compile(r"^(?:(?:\d+|[a-z]|[ivx]+) )+")
_LABEL_WORDS = 6
_MAX_MARKDOWN_HEADING = 200
# Folding drops "@": an e-mail address or a web address is read as the words "email" and
# "website" too, so "Jane Roe, dpo@acme.example" gives contact details in every language.
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# A line to sign on ("Date: ________", "Place, date: \\_\\_\\_") is read as "signatureline".
_SIGNATURE_LINE = re.compile(r"(?:\\?_){5,}")
_WEB = re.compile(r"\bhttps?://\S+|\bwww\.\S+")


def heading_of(line: str) -> str | None:
    """The heading `line` is (cleaned for a location), or None when it is body text."""
    stripped = " ".join(_ANCHOR.sub("", line).split())
    if not stripped or len(stripped) > _MAX_MARKDOWN_HEADING:
        return None
    markdown = _MARKDOWN_HEADING.match(stripped)
    if markdown:
        return _clean_heading(markdown["title"])
    # A heading may end with the provisions it implements, "(Art. 28(3); Decision (EU)
    # 2021/915 Annex II)": they count neither in its length nor in its words.
    title, reference = _without_references(stripped)
    if len(title) > _MAX_HEADING:
        return None
    numbered = _NUMBERED_HEADING.match(title)
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
        return _clean_heading(numbered["title"] + reference)
    if reference and _referenced_title(title):
        # An unnumbered title naming its provisions, "Confidentiality (Art. 28(3)(b))": the
        # heading of a clause once a DOCX or a PDF lost its heading style.
        return _clean_heading(stripped)
    letters = [char for char in stripped if char.isalpha()]
    if (
        len(letters) >= 4
        and stripped.upper() == stripped
        and not stripped.endswith((".", ";", ","))
        and len(stripped.split()) <= 8
    ):
        return _clean_heading(stripped)
    return None


def _without_references(line: str) -> tuple[str, str]:
    """The line without the parenthesised references that end it, and those references."""
    title = line
    while True:
        match = _TRAILING_REFERENCE.search(title)
        if not match or not _REFERENCE_START.match(match["inner"]):
            return title, line[len(title) :]
        title = title[: match.start()].rstrip()


def _is_reference(text: str) -> bool:
    """Whether `text` is one parenthesised legal reference, "(Art. 28 Abs. 3 lit. g DSGVO)"."""
    match = _TRAILING_REFERENCE.fullmatch(text)
    return bool(match and _REFERENCE_START.match(match["inner"]))


def _referenced_title(title: str) -> bool:
    """Whether what precedes a heading's references reads as a title, not as a sentence."""
    return (
        title[:1].isupper()
        and not title.endswith((".", ";", ",", ":"))
        and len(title.split()) <= _TITLE_WORDS
        and not _LIST_MARK.match(title)
        and not _SENTENCE_END.search(title)
    )


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


def _logical_lines(text: str, width: int) -> list[tuple[int, str]]:
    """The text's lines with a paragraph's wrapped lines joined, each with its offset.

    A PDF's text layer breaks a paragraph at every line of the page: "... have committed" /
    "themselves to confidentiality ...". Read line by line, a sentence would be cut in
    pieces none of which says what the clause says, and a heading wrapped after "(Art."
    would not be one. A line goes on in the next one when it does not end its sentence and
    either leaves a parenthesis open, or is followed by a lower-case word, or ends with a
    comma, or is full (the next line's first word would not have fitted on it: the width of
    the passage's longest lines). A blank line, a list item, a table row or a heading
    always starts a new line. Each joined line is a slice of the text, line breaks kept, so
    its sentences are quoted verbatim.
    """
    physical: list[tuple[int, str]] = []
    offset = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        physical.append((offset, body))
        offset += len(line)
    if not width:  # every line is a paragraph of its own
        return [(start, body) for start, body in physical if body.strip()]
    logical: list[tuple[int, str]] = []
    for start, body in physical:
        if not body.strip():
            logical.append((start, body))
            continue
        if logical and _continues(logical[-1][1], body, width):
            begin = logical[-1][0]
            logical[-1] = (begin, text[begin : start + len(body)])
        else:
            logical.append((start, body))
    return [(start, body) for start, body in logical if body.strip()]


def _wrap_width(lengths: Sequence[int]) -> int:
    """The width the document's paragraphs were wrapped at, or 0 when they were not.

    Wrapped text (a PDF's pages, a hard-wrapped text file) has several lines ending near
    the same right margin and none longer than a page's line; a DOCX or Markdown paragraph
    is one line of any length.
    """
    longest = max(lengths, default=0)
    if not _MIN_WRAP_WIDTH <= longest <= _MAX_WRAP_WIDTH:
        return 0
    near = sorted(length for length in lengths if length >= longest * _MARGIN)
    # The margin is where most wrapped lines end, not the one line that went furthest.
    return near[len(near) // 2] if len(near) >= _MARGIN_LINES else 0


def _continues(previous: str, line: str, width: int) -> bool:
    """Whether `line` goes on with the paragraph whose last line is `previous`."""
    last = previous.rsplit("\n", 1)[-1].rstrip()
    if not last.strip() or not line.strip() or _LIST_MARK.match(line) or "|" in line or "|" in last:
        return False
    if _MARKDOWN_HEADING.match(line) or _MARKDOWN_HEADING.match(last):
        return False
    first = line.split()[0]
    if last.count("(") > last.count(")"):
        return True
    if last.endswith((".", "!", "?", ":", ";")):
        # "(Art." / "28(3)(g)-(h))": an abbreviation goes on with a number or a lower-case word.
        word = last.split()[-1].lower().strip("(\"'.")
        return word in _ABBREVIATIONS and (first[:1].isdigit() or first[:1].islower())
    if _is_reference(line.strip()):
        # "5. End of processing" / "(Art. 28(3)(g)-(h))": a heading wrapped before its
        # references.
        return True
    if first[:1].islower() or last.endswith(","):
        # Even after a line that reads like a heading: a numbered clause's first line
        # ("7.1 The Processor takes the measures required by") is one until it goes on.
        return True
    if heading_of(previous) is not None and len(last) + 1 + len(first) <= width:
        return False
    full = width > 0 and len(last) + 1 + len(first) > width * _FULL_LINE
    # After a full line, only a numbered clause starts anew ("3. Sub-processors", "7.1 The
    # processor", "Annex II: ..."): "Art. 32 to 36: ..." goes on with the sentence before.
    return full and not _CLAUSE_START.match(line)


def units_of(passages: Sequence[Passage]) -> list[Unit]:
    """The units of every passage, in reading order, without the overlap's repetitions."""
    units: list[Unit] = []
    heading = ""
    previous_text = ""
    previous_headings: list[tuple[int, str]] = []
    previous_start_heading = ""
    width = _wrap_width(
        [len(line.rstrip()) for passage in passages for line in passage.text.splitlines()]
    )
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
        lead = ""
        for line_start, body in _logical_lines(text, width):
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
    own = read(text)
    return Unit(
        position=position,
        text=text,
        folded=read(f"{lead} {text}") if lead else own,
        heading=heading,
        heading_folded=fold(heading),
        title_folded=fold(_without_references(heading)[0]),
        start=" ".join(_NUMBERING.sub("", own).split()[:_LABEL_WORDS]),
        is_heading=is_heading,
        order=order,
    )


def read(text: str) -> str:
    """The folded text the rules match (e-mail and web addresses named as such)."""
    text = _EMAIL.sub(lambda match: f"{match[0]} email", text)
    text = _SIGNATURE_LINE.sub(" signatureline ", text)
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
