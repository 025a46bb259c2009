"""Input that the serializers accept is accepted by the database too, never a 500.

Found by the hostile-input suite: a manual edit's `changeReason` may be 500 characters
(API), but django-simple-history stored it in a 100-character column, and PostgreSQL's
"value too long" error answered 500 INTERNAL_ERROR. The history column is now text.
"""

from __future__ import annotations

from tests.factories import LegalDocumentFactory


def test_a_change_reason_longer_than_the_history_column_is_not_an_internal_error(dpo):
    document = LegalDocumentFactory(organization=dpo.organization)

    response = dpo.client.patch(
        f"/api/v1/legal-documents/{document.pk}",
        {"markdown": document.content_markdown + "\nMore.", "changeReason": "r" * 400},
        format="json",
    )

    # The history column holds any reason the API accepts (up to 500 characters).
    assert response.status_code == 200, response.json()
    assert document.history.latest().history_change_reason == "r" * 400
