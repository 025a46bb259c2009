"""A register kept in LibreOffice (.ods, common in EU public bodies) imports like an XLSX one."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from register.models import ProcessingActivity
from tests.support.ods import MEDIA_TYPE, ods_file

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("register_imports_here", "staleness_task_here"),
]
GERMAN_REGISTER = [
    ("Hinweise", [["Verzeichnis von Verarbeitungstätigkeiten der Stadtverwaltung"]]),
    (
        "Verzeichnis",
        [
            ["Verzeichnis von Verarbeitungstätigkeiten", "", "Stand: 01.03.2026"],
            [
                "Lfd. Nr.", "Verarbeitungstätigkeit", "Zwecke der Verarbeitung", "Rechtsgrundlage",
                "Kategorien betroffener Personen", "Kategorien personenbezogener Daten",
                "Löschfristen", "Technische und organisatorische Maßnahmen",
            ],
            [
                "V-01", "Wohngeldantrag", "Prüfung des Anspruchs\nAuszahlung",
                "Art. 6 Abs. 1 lit. e DSGVO", "Antragsteller", "Einkommen\nMietvertrag",
                "Antragsunterlagen: 6 Jahre", "Verschlüsselung\nRollenkonzept",
            ],
            [
                "V-02", "Bürgerumfrage", "Zufriedenheitsumfrage", "Einwilligung", "Bürger",
                "E-Mail-Adresse", "Antworten: 1 Jahr", "Pseudonymisierung",
            ],
        ],
    ),
]  # fmt: skip


def _import(caller, content: bytes, *, dry_run: bool) -> dict:  # type: ignore[no-untyped-def]
    upload = SimpleUploadedFile("verzeichnis.ods", content, content_type=MEDIA_TYPE)
    response = caller.client.post(
        "/api/v1/processing-activities/import",
        {"file": upload, "dryRun": "true" if dry_run else "false"},
        format="multipart",
    )
    assert response.status_code == 202, response.content
    assert response.json()["status"] == "completed", response.content
    return dict(response.json()["result"])


def test_it_imports_a_register_kept_as_ods_with_german_headers(dpo):
    plan = _import(dpo, ods_file(GERMAN_REGISTER), dry_run=False)

    assert plan["totals"]["activities"]["created"] == 2, plan
    housing = ProcessingActivity.objects.get(organization=dpo.organization, name="Wohngeldantrag")
    assert housing.reference == "V-01"
    assert housing.purposes == ["Prüfung des Anspruchs", "Auszahlung"]
    assert housing.data_categories == ["Einkommen", "Mietvertrag"]
    assert housing.retention == [{"category": "Antragsunterlagen", "period": "6 Jahre"}]
    assert housing.security_measures == ["Verschlüsselung", "Rollenkonzept"]
    assert [basis["code"] for basis in housing.legal_bases] == ["public-task"]
    assert plan["ignoredSheets"] == ["Hinweise"]


def test_it_finds_the_same_ods_imported_twice_unchanged(dpo):
    _import(dpo, ods_file(GERMAN_REGISTER), dry_run=False)

    plan = _import(dpo, ods_file(GERMAN_REGISTER), dry_run=True)

    assert plan["totals"]["activities"]["unchanged"] == 2, plan
