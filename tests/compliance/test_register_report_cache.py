"""The consistency report is computed once per register and documents state, per
organization, and read in a number of queries independent of their size (issue 25, item 6).

Every GET, for every role, used to load the whole register and the documents and run every
check, the documents' checks each scanning every activity; now the findings are cached under
a key made of the organization and a stamp of its register and documents (counts, latest
update, revisions), so a write anywhere moves the key and the next GET recomputes.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from register import services
from register.models import ProcessingActivity
from tests.compliance.register_seed import ACTOR, activity, clean_register, vendor
from tests.factories import LegalDocumentFactory

pytestmark = pytest.mark.django_db
REPORT = "/api/v1/compliance/register-report"
# Columns only a full load of the register or the documents reads (never the stamp).
ROW_COLUMNS = ('"data_categories"', '"content_markdown"', '"register_sources"')


def _get(caller):  # type: ignore[no-untyped-def]
    with CaptureQueriesContext(connection) as queries:
        response = caller.client.get(REPORT)
    assert response.status_code == 200, response.content
    # The API key's `last_used_at` is written at most once a minute: not the report's.
    sql = [query["sql"] for query in queries.captured_queries]
    return response.json(), [text for text in sql if '"organizations_apikey"' not in text]


def _kinds(body) -> list[str]:  # type: ignore[no-untyped-def]
    return [item["kind"] for item in body["items"]]


def _grow(organization, activities: int, documents: int, first: int = 0) -> None:  # type: ignore[no-untyped-def]
    for number in range(first, first + activities):
        services.activity_create(
            organization=organization, actor=ACTOR,
            data={"name": f"Activity {number}", "legal_bases": ["Art. 6(1)(b) contract"],
                  "retention": [f"{number % 9 + 1} years"]},
        )  # fmt: skip
    named = {str(pk): 1 for pk in ProcessingActivity.objects.values_list("pk", flat=True)}
    for number in range(documents):
        LegalDocumentFactory(
            organization=organization,
            document_type=("PRIVACY_POLICY", "DPIA")[number % 2], status="completed",
            register_sources={"activities": named},
            content_markdown=f"# Document {number}\n\nKept 1 years, 2 years, 3 years.\n",
        )  # fmt: skip


def test_it_serves_the_second_get_from_the_cache_without_loading_the_register(dpo, auditor):
    clean_register(dpo.organization)
    first, first_sql = _get(dpo)
    second, second_sql = _get(auditor)

    assert second["items"] == first["items"] and second["counts"] == first["counts"]
    assert any(column in sql for sql in first_sql for column in ROW_COLUMNS)
    loaded = [sql for sql in second_sql if any(column in sql for column in ROW_COLUMNS)]
    assert loaded == []


def test_a_register_or_document_change_moves_the_cached_report(dpo):
    register = clean_register(dpo.organization)
    assert _kinds(_get(dpo)[0]) == []

    services.vendor_update(
        vendor=vendor(dpo.organization, "Hosting GmbH"), actor=ACTOR, data={"dpa_status": "none"}
    )
    assert _kinds(_get(dpo)[0]) == ["processor-without-dpa"]

    register["dpia"].delete()
    assert sorted(_kinds(_get(dpo)[0])) == ["dpia-missing", "processor-without-dpa"]

    breach = register["breach"]
    discovered = timezone.now() - timedelta(hours=80)
    breach.inputs = {**breach.inputs, "discoveredAt": discovered.isoformat()}
    breach.save()
    assert "breach-notification-overdue" in _kinds(_get(dpo)[0])

    services.activity_update(
        activity=activity(dpo.organization, "Newsletter"), actor=ACTOR,
        data={"consent_withdrawal": ""},
    )  # fmt: skip
    assert "consent-without-withdrawal" in _kinds(_get(dpo)[0])


def test_it_reads_the_report_in_queries_independent_of_the_register_size(dpo):
    clean_register(dpo.organization)
    _grow(dpo.organization, activities=2, documents=2)
    small_cold, small_cold_sql = _get(dpo)
    _small_warm, small_warm_sql = _get(dpo)

    _grow(dpo.organization, activities=40, documents=20, first=2)
    large_cold, large_cold_sql = _get(dpo)
    _large_warm, large_warm_sql = _get(dpo)

    assert len(large_cold_sql) == len(small_cold_sql)
    assert len(large_warm_sql) == len(small_warm_sql)
    assert len(large_warm_sql) < len(large_cold_sql)
    assert large_cold["totalCount"] >= small_cold["totalCount"]


def test_the_clock_still_moves_a_cached_report(dpo):
    from compliance.report_cache import cached_register_report

    register = clean_register(dpo.organization)
    breach = register["breach"]
    discovered = timezone.now() - timedelta(hours=60)
    breach.inputs = {**breach.inputs, "discoveredAt": discovered.isoformat()}
    breach.save()
    now = timezone.now()
    assert cached_register_report(organization_id=dpo.organization.pk, now=now) == []

    later = cached_register_report(
        organization_id=dpo.organization.pk, now=now + timedelta(hours=20)
    )

    assert [item.kind for item in later] == ["breach-notification-overdue"]
    assert "8 h" in later[0].message


def test_a_cached_report_is_never_another_organizations(dpo, outsider):
    clean_register(dpo.organization)
    clean_register(outsider.organization)
    services.vendor_update(
        vendor=vendor(outsider.organization, "Hosting GmbH"), actor=ACTOR,
        data={"dpa_status": "none"},
    )  # fmt: skip
    assert _kinds(_get(outsider)[0]) == ["processor-without-dpa"]
    assert _kinds(_get(dpo)[0]) == []
    assert _kinds(_get(outsider)[0]) == ["processor-without-dpa"]
