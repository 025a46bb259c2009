"""HTML and Markdown injection through every text input never reaches an export as
active content.

The text inputs are found by introspection: every text field (and list of texts, and text
field of a nested serializer) of every document type's input serializer gets a payload of
script tags, event handlers and `javascript:` links. The document is then generated (the
template provider, in process) and edited by hand with the same payload, and the stored
HTML, the HTML export, the DOCX export and the PDF export are searched for active content
with real parsers.
"""

from __future__ import annotations

import io
import re
import zipfile
from html.parser import HTMLParser
from typing import Any

import pytest
from pypdf import PdfReader
from rest_framework import serializers

from common.structured import StringOrObjectField
from legal_documents.inputs.registry import DOCUMENT_TYPES
from legal_documents.models import LegalDocument
from legal_documents.services.documents import run_generation
from tests.legal_documents.samples import FULL_INPUTS

PAYLOAD = (
    "Acme <script>alert('xss-1')</script> "
    "<img src=x onerror=\"alert('xss-2')\"> "
    "[click me](javascript:alert('xss-3')) "
    "[also](JaVaScRiPt:alert('xss-4')) "
    "<a href=\"javascript:alert('xss-5')\">link</a> "
    "<svg/onload=alert('xss-6')> "
    '"><iframe src="javascript:alert(\'xss-7\')"></iframe> '
    "![pixel](javascript:alert('xss-8')) "
    "<style>body{background:url(javascript:alert('xss-9'))}</style> "
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) "
    "<javascript:alert('xss-10')> "
    "</td></tr></table><b onmouseover=alert('xss-11')>bold</b>"
)
# `svg` itself is not listed: the DPIA's risk map is drawn as inline SVG (legal_documents
# exports). What could run or load inside an SVG is: script, foreignObject, animation, use and
# image (and any on* handler or unsafe URL, checked below for every tag).
ACTIVE_TAGS = {"script", "iframe", "object", "embed", "math", "img", "form", "input",
               "button", "link", "base", "frame", "frameset", "applet", "foreignobject",
               "animate", "set", "animatetransform", "animatemotion", "use", "image"}  # fmt: skip
UNSAFE_URL = re.compile(r"^\s*(javascript|vbscript|data)\s*:", re.IGNORECASE)


class ActiveContentFinder(HTMLParser):
    """Collects every tag, attribute and style block that could run or load something."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.findings: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ACTIVE_TAGS:
            self.findings.append(f"<{tag}>")
        self._in_style = tag == "style"
        if tag == "meta" and ("http-equiv", "refresh") in [
            (n, (v or "").lower()) for n, v in attrs
        ]:
            self.findings.append("<meta http-equiv=refresh>")  # it can navigate anywhere
        for name, value in attrs:
            if name.startswith("on"):
                self.findings.append(f"<{tag} {name}=...>")
            url_attribute = name in {"href", "src", "action", "formaction", "xlink:href"}
            if url_attribute and value and UNSAFE_URL.match(value):
                self.findings.append(f"<{tag} {name}={value!r}>")
            if name == "style" and value and "url(" in value.lower():
                self.findings.append(f"<{tag} style={value!r}>")

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style and "xss" in data:
            self.findings.append("<style> with input text")


def active_content(html: str) -> list[str]:
    finder = ActiveContentFinder()
    finder.feed(html)
    finder.close()
    return finder.findings


def with_payload(field: serializers.Field, value: Any) -> Any:
    """`value` with PAYLOAD in every text it holds, following the field's declared shape."""
    if isinstance(field, serializers.ChoiceField | serializers.BooleanField):
        return value
    if isinstance(field, serializers.CharField | StringOrObjectField):
        return PAYLOAD  # a structured input takes the plain string form too
    if isinstance(field, serializers.ListField):
        if isinstance(field.child, serializers.CharField | StringOrObjectField):
            return [PAYLOAD, f"second {PAYLOAD}"]
        return value
    if isinstance(field, serializers.ListSerializer):
        child = field.child
        required_non_text = [
            sub for sub in child.fields.values()
            if sub.required and not isinstance(sub, serializers.CharField | StringOrObjectField)
        ]  # fmt: skip
        if not value and required_non_text:
            return value  # an absent list of objects with numbers (riskRatings) stays absent
        items = value or [{}]
        # An absent optional choice stays absent: null is not a value the API accepts.
        return [
            {name: hostile for name, sub in child.fields.items()
             if not sub.read_only and (hostile := with_payload(sub, item.get(name))) is not None}
            | {k: v for k, v in item.items() if k not in child.fields}
            for item in items
        ]  # fmt: skip
    return value


def hostile_inputs(document_type: str) -> tuple[dict[str, Any], list[str]]:
    """The type's complete inputs with the payload in every text input; and their names."""
    inputs = dict(FULL_INPUTS[document_type])
    fields = DOCUMENT_TYPES[document_type].input_serializer().fields
    touched = []
    for name, field in fields.items():
        if field.read_only or name == "clientCompanyId":
            continue
        changed = with_payload(field, inputs.get(name))
        if changed != inputs.get(name):
            touched.append(name)
        if changed is not None:
            inputs[name] = changed
    return inputs, touched


def pdf_active_content(data: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(data))
    findings = []
    root = reader.trailer["/Root"]
    if "/OpenAction" in root or "/AA" in root:
        findings.append("document action")
    if "/JavaScript" in root.get("/Names", {}):
        findings.append("document JavaScript")
    for page in reader.pages:
        for annotation in page.get("/Annots") or []:
            action = annotation.get_object().get("/A") or {}
            if action.get("/S") in {"/JavaScript", "/Launch", "/SubmitForm", "/ImportData"}:
                findings.append(f"annotation action {action.get('/S')}")
            if UNSAFE_URL.match(str(action.get("/URI", ""))):
                findings.append(f"annotation URI {action.get('/URI')}")
    return findings


def docx_active_content(data: bytes) -> list[str]:
    findings = []
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            text = archive.read(name).decode("utf-8", errors="replace")
            if name.endswith(".rels") and re.search(r'Target="\s*(javascript|data|vbscript):',
                                                    text, re.IGNORECASE):  # fmt: skip
                findings.append(f"{name}: unsafe link target")
            if name.endswith(".xml") and "<w:instrText" in text and "xss" in text:
                findings.append(f"{name}: field code built from input")
            if name.lower().endswith((".bin", ".js")) or "vbaProject" in name:
                findings.append(f"{name}: embedded code")
    return findings


@pytest.fixture
def unthrottled(settings):  # type: ignore[no-untyped-def]
    settings.RATE_LIMIT_WRITES = "1000/min"


@pytest.mark.parametrize("document_type", sorted(DOCUMENT_TYPES))
def test_text_inputs_never_reach_an_export_as_active_content(dpo, unthrottled, document_type):
    inputs, touched = hostile_inputs(document_type)
    assert "companyName" in touched and len(touched) >= 3, touched

    created = dpo.client.post(
        "/api/v1/legal-documents", {"documentType": document_type, **inputs}, format="json"
    )
    assert created.status_code == 201, created.json()
    document = LegalDocument.objects.get(pk=created.json()["id"])
    run_generation(document_id=str(document.pk), job_id=str(document.job_id))
    document.refresh_from_db()
    assert document.status == "completed", document.error_message
    assert "xss-1" in document.content_markdown  # the input did reach the document, as text

    edited = dpo.client.patch(
        f"/api/v1/legal-documents/{document.pk}",
        {"markdown": document.content_markdown + "\n\n" + PAYLOAD, "changeReason": PAYLOAD[:100]},
        format="json",
    )
    assert edited.status_code == 200, edited.json()
    document.refresh_from_db()

    assert active_content(document.content_html) == []
    exports = {
        fmt: dpo.client.get(f"/api/v1/legal-documents/{document.pk}/export?format={fmt}")
        for fmt in ("html", "pdf", "docx")
    }
    assert all(response.status_code == 200 for response in exports.values())
    assert active_content(exports["html"].content.decode()) == []
    assert pdf_active_content(exports["pdf"].content) == []
    assert docx_active_content(exports["docx"].content) == []
    for version in (1, 2):
        page = dpo.client.get(
            f"/api/v1/legal-documents/{document.pk}/export?format=html&version={version}"
        )
        assert active_content(page.content.decode()) == [], version
