"""A register written in German reaches the same transfer conclusions as one in English.

The vendors sheet of a German register names countries in German ("Irland", "Schweiz",
"Vereinigte Staaten"): an EEA country is no transfer, a country with an adequacy decision
(Art. 45) needs no other mechanism, a third country without one is reported.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from register.models import Transfer, Vendor
from tests.conftest import Caller
from tests.support.register_workbook import register_workbook

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("register_imports_here")]

IMPORT = "/api/v1/processing-activities/import"
REPORT = "/api/v1/compliance/register-report"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# The vendors sheet as a German DPO heads it.
GERMAN_VENDOR_HEADERS = (
    "Nr.", "Auftragsverarbeiter", "Anschrift", "Land", "Leistungen", "AVV-Status", "AVV-Datum",
    "Unterauftragsverarbeiter", "Garantie Drittland",
)  # fmt: skip


def _vendor(reference: str, name: str, country: str, mechanism: str = "") -> dict[str, Any]:
    return {
        "Nr.": reference,
        "Auftragsverarbeiter": name,
        "Land": country,
        "Leistungen": "Hosting",
        "AVV-Status": "signed",
        "AVV-Datum": "2024-01-15",
        "Garantie Drittland": mechanism,
    }


def _import(caller: Caller, vendors: list[dict[str, Any]]) -> dict[str, Any]:
    content = register_workbook(vendors=vendors, vendor_headers=GERMAN_VENDOR_HEADERS)
    upload = SimpleUploadedFile("verzeichnis.xlsx", content, content_type=XLSX)
    response = caller.client.post(IMPORT, {"file": upload}, format="multipart")
    assert response.status_code == 202, response.content
    assert response.json()["status"] == "completed", response.content  # run here at once
    return dict(response.json()["result"])


def _items_naming(caller: Caller, vendor_name: str) -> list[dict[str, Any]]:
    vendor = Vendor.objects.get(name=vendor_name)
    items = caller.client.get(REPORT).json()["items"]
    return [item for item in items if {"type": "vendor", "id": str(vendor.pk)} in
            [{"type": o["type"], "id": o["id"]} for o in item["objects"]]]  # fmt: skip


def test_it_reports_no_transfer_for_vendors_in_irland_and_schweden(dpo: Caller) -> None:
    body = _import(
        dpo,
        [
            _vendor("AV-01", "Cloud Hosting Ireland Ltd", "Irland"),
            _vendor("AV-02", "Nordic Mail AB", "Schweden"),
            _vendor("AV-03", "Analytics Inc.", "Vereinigte Staaten"),
        ],
    )

    rows = {row["name"]: row for row in body["rows"]}
    for name in ("Cloud Hosting Ireland Ltd", "Nordic Mail AB"):
        assert not Transfer.objects.filter(vendor__name=name).exists(), name
        assert rows[name]["problems"] == [], rows[name]
        assert [item for item in _items_naming(dpo, name) if item["severity"] == "high"] == []
        vendor = dpo.client.get(f"/api/v1/vendors/{Vendor.objects.get(name=name).pk}").json()
        assert vendor["outsideEea"] is False
    # A third country without a mechanism is still reported, named in German.
    assert rows["Analytics Inc."]["problems"] == [
        "outside the EEA (Vereinigte Staaten) with no transfer mechanism"
    ]
    reported = _items_naming(dpo, "Analytics Inc.")
    assert [(i["kind"], i["severity"]) for i in reported] == [
        ("transfer-without-mechanism", "high")
    ]


@pytest.mark.parametrize(
    "countries",
    [
        ("Schweiz", "Vereinigtes Königreich", "Neuseeland"),
        ("Switzerland", "United Kingdom", "New Zealand"),
        ("Suisse", "Royaume-Uni", "Nouvelle-Zélande"),
    ],
)
def test_it_needs_no_other_mechanism_for_a_country_with_an_adequacy_decision(
    dpo: Caller, countries: tuple[str, ...]
) -> None:
    names = ("Swiss Hosting AG", "London Payroll Ltd", "Kiwi Support Ltd")
    body = _import(
        dpo,
        [
            _vendor(f"AV-0{index}", name, country)
            for index, (name, country) in enumerate(zip(names, countries, strict=True), 1)
        ],
    )

    rows = {row["name"]: row for row in body["rows"]}
    for name, country in zip(names, countries, strict=True):
        # Still a transfer to a third country (Chapter V applies), resting on Art. 45.
        assert Transfer.objects.filter(vendor__name=name, country=country).exists(), name
        assert rows[name]["problems"] == [], rows[name]
        high = [item for item in _items_naming(dpo, name) if item["severity"] == "high"]
        assert high == [], (country, high)
