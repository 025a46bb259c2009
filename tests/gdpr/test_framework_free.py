"""The rules engine composes every document type with no Django settings and no framework.

Run in a subprocess with a clean environment (no DJANGO_SETTINGS_MODULE, nothing of this
process's imports): `gdpr` must not need the app, Django or DRF to write a document.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
import gdpr
from tests.legal_documents.samples import FIXED_NOW, FULL_ANSWERS, FULL_INPUTS

headings = {}
for name, spec in gdpr.DOCUMENT_TYPES.items():
    markdown = gdpr.compose(
        document_type=spec, inputs=FULL_INPUTS[name], answers=FULL_ANSWERS[name], now=FIXED_NOW
    )
    report = gdpr.completeness_report(document_type=spec, markdown=markdown)
    headings[name] = {
        "title": markdown.splitlines()[0],
        "sections": [line for line in markdown.splitlines() if line.startswith("## ")],
        "missing": list(report.missing),
    }
frameworks = sorted(
    module for module in sys.modules
    if module.split(".")[0] in {"django", "rest_framework", "drf_spectacular"}
)
apps = sorted(
    module for module in sys.modules
    if module.split(".")[0]
    in {"legal_documents", "assets", "organizations", "audit", "webhooks", "common", "config"}
)
print(json.dumps({"headings": headings, "frameworks": frameworks, "apps": apps}))
"""


def _run_clean() -> dict:
    # Only what Python needs to find the interpreter and this checkout: no Django settings.
    environment = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "PYTHONNOUSERSITE": "1"}
    completed = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def test_gdpr_composes_every_type_without_django_or_drf():
    result = _run_clean()
    headings = result["headings"]
    assert set(headings) == {
        "RECORD_OF_PROCESSING",
        "DPIA",
        "PRIVACY_POLICY",
        "DATA_PROCESSING_AGREEMENT",
        "BREACH_NOTIFICATION",
        "DATA_SUBJECT_REQUEST_FORM",
    }
    assert headings["DPIA"]["title"] == "# Data Protection Impact Assessment"
    assert headings["BREACH_NOTIFICATION"]["title"] == "# Personal Data Breach Notification"
    assert (
        "## 2. Screening: is a DPIA required? (Art. 35(1), 35(3), 35(4))"
        in headings["DPIA"]["sections"]
    )
    assert (
        "## 1. Record of the controller (Art. 30(1))"
        in headings["RECORD_OF_PROCESSING"]["sections"]
    )
    assert "## 1. Who we are (Art. 13(1)(a)-(b))" in headings["PRIVACY_POLICY"]["sections"]
    assert (
        "## 1. Parties and scope of the processing (Art. 28(3))"
        in (headings["DATA_PROCESSING_AGREEMENT"]["sections"])
    )
    assert (
        "## 1. Notification and deadline (Art. 33(1)-(2))"
        in headings["BREACH_NOTIFICATION"]["sections"]
    )
    assert (
        "## 3. How we handle your request (Art. 12(3)-(5))"
        in (headings["DATA_SUBJECT_REQUEST_FORM"]["sections"])
    )
    # The full sample inputs and answers satisfy every checklist item, as in the app.
    assert all(not heading["missing"] for heading in headings.values())
    assert result["frameworks"] == []
    assert result["apps"] == []
