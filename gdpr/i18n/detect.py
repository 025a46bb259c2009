"""Which language a sentence is written in, by its function words (a stop-word count).

Used by the language-purity test (no English sentence in a German document outside user
input) and by the openai provider (a section that comes back in another language is asked
again, then replaced by the template's). Short labels carry no function words and are not
judged: the catalog tests check that every msgid of a complete language is translated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

_WORDS: Final[dict[str, str]] = {
    "en": "the and of to is are be for with that this it by or from not we you your our which"
    " who has have were can may must any each its their they these those when where if than"
    " what how been into about only such other does under after before within without us"
    " there would should could whether",
    "de": "der die das und ist sind nicht mit von zu den dem ein eine einer eines für auf auch"
    " sich wir sie ihre ihr wird werden oder bei nach wenn wie dass durch über unter zur zum"
    " vom aus kann können muss müssen diese dieser dieses im",
    "fr": "le la les de des et est pas avec pour une du au aux ce cette ces qui que dans sur"
    " par nous vous votre vos notre nos leur leurs être peut doit été sans entre lors en à",
    "es": "el la los las de del y es son no con para por una uno que en su sus nuestro nuestra"
    " nosotros usted sobre entre sin puede debe ser este esta estos estas al lo se",
    "it": "il lo la gli le di del della dei delle e è sono non con per una uno che su suo"
    " sua nostro nostra noi voi vostro sul sulla nel nella può deve essere ha hanno questo"
    " questa questi queste al",
}
# Words shared by two languages count for both: the language with the most hits wins, and
# a tie decides nothing.
STOP_WORDS: Final[dict[str, frozenset[str]]] = {
    language: frozenset(words.split()) for language, words in _WORDS.items()
}
MIN_HITS = 2
MIN_RATIO = 0.15
_TOKEN = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|\n+|\s\|\s|\|")
_MARKUP = re.compile(r"\{#[a-z0-9-]+\}|[*_`#>\\]|\[[ x]\]|^\s*[-+]\s+|^\s*\d+[.)]\s+", re.M)


def sentence_language(sentence: str) -> str | None:
    """The language whose function words dominate the sentence, or None when undecided."""
    words = [word.lower() for word in _TOKEN.findall(sentence)]
    words = [re.split(r"['\u2019]", word)[-1] for word in words]
    if not words:
        return None
    hits = {
        language: sum(1 for word in words if word in stop_words)
        for language, stop_words in STOP_WORDS.items()
    }
    ranked = sorted(hits.items(), key=lambda item: item[1], reverse=True)
    (best, count), (_second, runner_up) = ranked[0], ranked[1]
    if count < MIN_HITS or count / len(words) < MIN_RATIO or count == runner_up:
        return None
    return best


def sentences(text: str) -> list[str]:
    """The sentences (and table cells, list items) of a Markdown text, markup removed."""
    plain = _MARKUP.sub(" ", text)
    return [part.strip() for part in _SENTENCE_END.split(plain) if part and part.strip()]


def foreign_sentences(text: str, language: str) -> list[tuple[str, str]]:
    """(sentence, detected language) for every sentence written in another language."""
    found = []
    for sentence in sentences(text):
        detected = sentence_language(sentence)
        if detected is not None and detected != language:
            found.append((sentence, detected))
    return found


def without_values(text: str, values: Iterable[str]) -> str:
    """`text` with every given value (user input) removed, longest first, escaped or not.

    Writers escape user text for Markdown (a backslash before punctuation) and fold its
    lines; both forms are removed. Single words (codes such as "consent") are left: they
    carry no sentence, and removing them would cut our own words.
    """
    plain = re.sub(r"\\(.)", r"\1", text)
    parts = {
        " ".join(line.split())
        for value in values
        for line in str(value).splitlines()
        if len(line.split()) > 1
    }
    for part in sorted(parts, key=len, reverse=True):
        plain = plain.replace(part, " ")
    return plain
