"""Recognising legal bases, Art. 9(2) conditions and transfer safeguards in register cells.

gdpr.composition.recognition does the recognising; registers written in German or French
cite articles the way lawyers there do ("Art. 6 Abs. 1 lit. b DSGVO", "article 6.1 b) du
RGPD", "Art. 9 Abs. 2 lit. h") and name bases in their language ("Einwilligung",
"intérêt légitime"), which that module (English forms) does not read. Here a citation is
rewritten to the "Art. 6(1)(b)" form and a German or French name to the English one BEFORE
asking it; the wording of the cell is what is stored, never the rewrite.
"""

from __future__ import annotations

import re

from gdpr.composition.recognition import recognise_legal_basis, recognise_safeguard
from register.importing.headers import normalise

# "Art. 6 Abs. 1 lit. b", "Art. 6 Abs. 1 S. 1 lit. f", "article 6, paragraphe 1, point a",
# "Artikel 9 Absatz 2 Buchstabe h", "art. 6-1-c".
_CITATION = re.compile(
    r"\bart(?:ikel|icle|\.)?\s*(6|9)[\s,.-]*(?:abs(?:atz)?|para(?:graph(?:e)?)?|al(?:inea)?|§)?"
    r"[\s,.]*\(?\s*([12])\s*\)?[\s,.-]*(?:s(?:atz)?[\s.]*1[\s,.]*)?"
    r"(?:lit(?:era)?|buchst(?:abe)?|point|letter|let)?[\s.]*\(?\s*([a-j])\s*(?:\)|(?![a-z]))",
    re.IGNORECASE,
)
# Normalised German and French names -> the English words the recogniser knows.
_BASIS_NAMES: tuple[tuple[str, str], ...] = (
    ("einwilligung", "consent"),
    ("consentement", "consent"),
    ("vertragserfullung", "contract"),
    ("vertragsanbahnung", "contract"),
    ("vertrag", "contract"),
    ("arbeitsvertrag", "contract"),
    ("execution d un contrat", "contract"),
    ("mesures precontractuelles", "contract"),
    ("contrat", "contract"),
    ("rechtliche verpflichtung", "legal obligation"),
    ("gesetzliche verpflichtung", "legal obligation"),
    ("gesetzliche pflicht", "legal obligation"),
    ("obligation legale", "legal obligation"),
    ("lebenswichtige interessen", "vital interests"),
    ("interets vitaux", "vital interests"),
    ("offentliches interesse", "public task"),
    ("offentliche aufgabe", "public task"),
    ("mission d interet public", "public task"),
    ("berechtigtes interesse", "legitimate interests"),
    ("berechtigte interessen", "legitimate interests"),
    ("interet legitime", "legitimate interests"),
    ("interets legitimes", "legitimate interests"),
)
_SAFEGUARD_NAMES: tuple[tuple[str, str], ...] = (
    ("standardvertragsklauseln", "standard contractual clauses"),
    ("standarddatenschutzklauseln", "standard contractual clauses"),
    ("clauses contractuelles types", "standard contractual clauses"),
    ("cct", "standard contractual clauses"),
    ("angemessenheitsbeschluss", "adequacy decision"),
    ("decision d adequation", "adequacy decision"),
    ("verbindliche interne datenschutzvorschriften", "binding corporate rules"),
    ("regles d entreprise contraignantes", "binding corporate rules"),
    ("verhaltensregeln", "code of conduct"),
    ("zertifizierung", "certification"),
    ("ausnahme nach art 49", "art 49 derogation"),
    ("derogation", "art 49 derogation"),
    ("keine", "none"),
    ("aucune", "none"),
    ("aucun", "none"),
)


def _with_words(text: str, names: tuple[tuple[str, str], ...]) -> str:
    padded = f" {normalise(text)} "
    found = [english for name, english in names if f" {name} " in padded]
    return "; ".join(dict.fromkeys(found))


def cited_form(text: str) -> str:
    """`text` with German and French article citations rewritten as "Art. 6(1)(b)"."""
    return _CITATION.sub(lambda m: f"Art. {m[1]}({m[2]})({m[3].lower()})", text)


def legal_basis(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(Art. 6(1) codes, Art. 9(2) letters) that a register cell names; both empty if none."""
    for candidate in (text, cited_form(text), _with_words(text, _BASIS_NAMES)):
        found = recognise_legal_basis(candidate) if candidate else None
        if found is not None:
            return found.codes, found.conditions
    return (), ()


def safeguard(text: str) -> str | None:
    """The TRANSFER_SAFEGUARDS code a register cell names, or None."""
    code = recognise_safeguard(text)
    if code is None:
        words = _with_words(text, _SAFEGUARD_NAMES)
        code = recognise_safeguard(words.split("; ")[0]) if words else None
    return code
