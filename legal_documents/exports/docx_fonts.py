"""DejaVu Sans embedded in the Word file, so every letter renders on any machine.

Word draws with the fonts of the reader's machine; a document in German, French, Spanish or
Italian (ß, é, ñ, à) or with a name like Łódź then depends on what is installed. The same
vendored DejaVu Sans as the PDF (`legal_documents/fonts/`, with its licence) is set as the
text font and embedded as Office Open XML obfuscated fonts (ECMA-376 Part 1, 17.8.1): the
first 32 bytes of the TrueType file XORed with a key derived from the font's GUID, which
the font table names. Word, LibreOffice and Pages read them back.
"""

from __future__ import annotations

import uuid
from functools import cache
from pathlib import Path

from docx.document import Document as DocxDocument
from docx.opc.constants import RELATIONSHIP_TYPE
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from lxml import etree

FONT_DIRECTORY = Path(__file__).resolve().parent.parent / "fonts"
FONT_NAME = "DejaVu Sans"
OBFUSCATED_FONT = "application/vnd.openxmlformats-officedocument.obfuscatedFont"
# (font table element, vendored file): regular and bold carry the body and the headings.
_VARIANTS = (("w:embedRegular", "DejaVuSans.ttf"), ("w:embedBold", "DejaVuSans-Bold.ttf"))
# Fixed keys: the same document exports to the same bytes.
_KEY_NAMESPACE = uuid.UUID("3f0c6a5e-6d0e-4e0a-9a53-5c4b1f0de7a1")
# Settings elements that precede w:embedTrueTypeFonts in CT_Settings (schema order).
_SETTINGS_BEFORE = (
    "w:writeProtection", "w:view", "w:zoom", "w:removePersonalInformation",
    "w:removeDateAndTime", "w:doNotDisplayPageBoundaries", "w:displayBackgroundShape",
    "w:printPostScriptOverText", "w:printFractionalCharacterWidth", "w:printFormsData",
)  # fmt: skip


def font_key(file_name: str) -> str:
    """The GUID of an embedded font as the font table writes it: `{XXXXXXXX-...}`."""
    return "{" + str(uuid.uuid5(_KEY_NAMESPACE, file_name)).upper() + "}"


def _key_bytes(key: str) -> bytes:
    # The 16 bytes of the GUID string's hex digits, read from the last pair to the first.
    digits = key.strip("{}").replace("-", "")
    return bytes(int(digits[i : i + 2], 16) for i in range(30, -2, -2))


def obfuscate(font: bytes, key: str) -> bytes:
    """XOR the first 32 bytes with the key (the operation is its own inverse)."""
    key_bytes = _key_bytes(key)
    head = bytes(byte ^ key_bytes[index % 16] for index, byte in enumerate(font[:32]))
    return head + font[32:]


@cache
def _font_file(file_name: str) -> bytes:
    return (FONT_DIRECTORY / file_name).read_bytes()


def embed_fonts(document: DocxDocument) -> None:
    """Set DejaVu Sans as the document's text font and embed it (regular and bold)."""
    package = document.part.package
    font_table = next(
        part for part in package.iter_parts() if part.partname == "/word/fontTable.xml"
    )
    fonts = etree.fromstring(font_table.blob)
    entry = OxmlElement("w:font")
    entry.set(qn("w:name"), FONT_NAME)
    for tag, value in (("w:charset", "00"), ("w:family", "swiss"), ("w:pitch", "variable")):
        child = OxmlElement(tag)
        child.set(qn("w:val"), value)
        entry.append(child)
    for index, (tag, file_name) in enumerate(_VARIANTS, 1):
        key = font_key(file_name)
        part = Part(
            PackURI(f"/word/fonts/font{index}.odttf"),
            OBFUSCATED_FONT,
            obfuscate(_font_file(file_name), key),
            package,
        )
        embedded = OxmlElement(tag)
        embedded.set(qn("r:id"), font_table.relate_to(part, RELATIONSHIP_TYPE.FONT))
        embedded.set(qn("w:fontKey"), key)
        entry.append(embedded)
    fonts.append(entry)
    font_table._blob = etree.tostring(
        fonts, xml_declaration=True, encoding="UTF-8", standalone=True
    )
    _embed_in_settings(document)
    _use_font_everywhere(document)


def _embed_in_settings(document: DocxDocument) -> None:
    settings = document.settings.element
    if settings.find(qn("w:embedTrueTypeFonts")) is not None:
        return
    flag = OxmlElement("w:embedTrueTypeFonts")
    before = [child for child in settings if child.tag in {qn(tag) for tag in _SETTINGS_BEFORE}]
    if before:
        before[-1].addnext(flag)
    else:
        settings.insert(0, flag)


def _use_font_everywhere(document: DocxDocument) -> None:
    # Theme fonts (Calibri, Cambria) would win over an explicit font: every rFonts of the
    # defaults and the styles names DejaVu Sans instead, except a monospace code font.
    styles = document.styles.element
    for fonts in styles.iter(qn("w:rFonts")):
        if fonts.get(qn("w:ascii")) == "Courier New":
            continue
        for theme in ("w:asciiTheme", "w:hAnsiTheme", "w:eastAsiaTheme", "w:cstheme"):
            fonts.attrib.pop(qn(theme), None)
        for script in ("w:ascii", "w:hAnsi", "w:eastAsia", "w:cs"):
            fonts.set(qn(script), FONT_NAME)
