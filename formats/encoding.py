"""Character-encoding detection and streamed decoding of text files: one rule for the
asset pipeline and the register import (formats/text.py).

Order of evidence, strongest first: a byte-order mark (UTF-8/16/32); the NUL pattern of
BOM-less UTF-16/32 (such files are full of NULs yet still "valid" UTF-8, so a naive decode
returns garbage); strict UTF-8 over a sample; for HTML, a declared ``charset``; then
charset-normalizer; and finally cp1252, which decodes any byte. Decoding uses
``errors="replace"`` so that one bad byte deep in a 100 MB file costs a replacement
character, not the whole upload.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from pathlib import Path

import charset_normalizer

SAMPLE_BYTES = 256 * 1024
BLOCK_BYTES = 1024 * 1024

_BOMS: tuple[tuple[bytes, str], ...] = (
    # UTF-32 first: the UTF-32-LE BOM starts with the UTF-16-LE one.
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
# The HTML standard decodes these labels as windows-1252, which browsers do too.
_HTML_WINDOWS_1252_ALIASES = {"iso-8859-1", "iso8859-1", "latin1", "latin-1", "us-ascii", "ascii"}


def encoding_from_bom(head: bytes) -> str | None:
    """The codec named by a leading byte-order mark, or None."""
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name
    return None


def encoding_from_nul_pattern(sample: bytes) -> str | None:
    """Guess BOM-less UTF-16/32 from where the NUL bytes sit (mostly-ASCII text assumed)."""
    if len(sample) < 4 or sample.count(0) < len(sample) // 4:
        return None
    usable = len(sample) - len(sample) % 4
    sample = sample[:usable]
    positions = [sample[offset::4].count(0) for offset in range(4)]
    quarter = usable // 4
    # UTF-32-LE ASCII: "A\0\0\0"; UTF-32-BE: "\0\0\0A".
    if positions[1] > 0.9 * quarter and positions[2] > 0.9 * quarter:
        return "utf-32-le" if positions[3] > 0.9 * quarter else "utf-32-be"
    even, odd = positions[0] + positions[2], positions[1] + positions[3]
    if even > 3 * max(odd, 1):
        return "utf-16-be"
    if odd > 3 * max(even, 1):
        return "utf-16-le"
    return None


def decodes_as_utf8(sample: bytes) -> bool:
    # Incremental and not final: a sample cut inside a multi-byte character is still valid.
    try:
        codecs.getincrementaldecoder("utf-8")().decode(sample, final=False)
    except UnicodeDecodeError:
        return False
    return True


def _declared_html_charset(sample: bytes) -> str | None:
    match = _META_CHARSET.search(sample[:4096])
    if not match:
        return None
    label = match.group(1).decode("ascii", "ignore").lower()
    if label in _HTML_WINDOWS_1252_ALIASES:
        return "cp1252"
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


def detect_encoding(sample: bytes, *, html: bool = False) -> str:
    """Name a Python codec for bytes whose first ``SAMPLE_BYTES`` are ``sample``.

    Never fails: cp1252 is the last resort because it maps every byte to some character.
    """
    bom_encoding = encoding_from_bom(sample)
    if bom_encoding:
        return bom_encoding
    nul_encoding = encoding_from_nul_pattern(sample)
    if nul_encoding:
        return nul_encoding
    if decodes_as_utf8(sample):
        return "utf-8"
    if html:
        declared = _declared_html_charset(sample)
        if declared and declared not in ("utf-8", "utf_8"):
            return declared
    best = charset_normalizer.from_bytes(sample).best()
    if best is not None and best.encoding:
        return _prefer_windows_1252(best.encoding)
    return "cp1252"


def _prefer_windows_1252(name: str) -> str:
    # charset-normalizer often names latin-1 for Western text; cp1252 is a superset of its
    # printable range (adds the euro sign, curly quotes) and is what such files really use.
    return "cp1252" if codecs.lookup(name).name in ("latin-1", "iso8859-1") else name


def read_sample(path: Path, size: int = SAMPLE_BYTES) -> bytes:
    """The first ``size`` bytes of the file."""
    with path.open("rb") as handle:
        return handle.read(size)


def iter_decoded_blocks(
    path: Path, *, encoding: str | None = None, html: bool = False, block_bytes: int = BLOCK_BYTES
) -> Iterator[str]:
    """Decode a file in blocks of about ``block_bytes`` (bounded memory, never the whole file).

    Blocks split anywhere, even inside a line; callers that need line boundaries re-join.
    Line endings are normalised to ``\\n`` (a CR at a block edge is held back for its LF).
    """
    codec = encoding or detect_encoding(read_sample(path), html=html)
    decoder = codecs.getincrementaldecoder(codec)(errors="replace")
    held_cr = ""
    with path.open("rb") as handle:
        while True:
            raw = handle.read(block_bytes)
            final = not raw
            text = held_cr + decoder.decode(raw, final=final)
            held_cr = ""
            if not final and text.endswith("\r"):
                text, held_cr = text[:-1], "\r"
            text = text.replace("\r\n", "\n").replace("\r", "\n")
            if text:
                yield text
            if final:
                return
