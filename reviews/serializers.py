"""The reviews API's bodies (docs/API.md, Reviews): the create body, the review, list filters."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from gdpr.i18n import COMPLETE_LANGUAGES
from gdpr.review.engine import REVIEWABLE_TYPES
from gdpr.review.report import ItemStatus, Verdict
from reviews import events
from reviews.models import Review, ReviewStatus
from reviews.running import STAGES

ITEM_STATUSES = [status.value for status in ItemStatus]
VERDICTS = [verdict.value for verdict in Verdict]


class CreateReviewSerializer(serializers.Serializer):
    assetId = serializers.UUIDField(  # noqa: N815
        help_text="An uploaded asset of your organization (it may still be processing: the"
        " review waits for it)."
    )
    documentType = serializers.ChoiceField(  # noqa: N815
        choices=list(REVIEWABLE_TYPES),
        error_messages={
            "invalid_choice": '"{input}" is not a document type a review knows; accepted: '
            + ", ".join(REVIEWABLE_TYPES)
            + "."
        },
    )
    language = serializers.ChoiceField(
        choices=list(COMPLETE_LANGUAGES),
        required=False,
        error_messages={
            "invalid_choice": 'Unsupported language "{input}"; accepted: '
            + ", ".join(COMPLETE_LANGUAGES)
            + "."
        },
        help_text="The report's language (findings, suggestions); default: the language of"
        " your organization's newest document, else en.",
    )
    vendorId = serializers.UUIDField(  # noqa: N815
        required=False,
        allow_null=True,
        help_text="A vendor of your register whose document this is (its DPA).",
    )


class CreatedReviewSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=ReviewStatus.choices)


class CitationSerializer(serializers.Serializer):
    location = serializers.CharField(
        help_text="Where the quote is: a page, a section heading or a paragraph ('' unknown)."
    )
    quote = serializers.CharField(help_text="Verbatim text of the document (checked).")


class ReviewItemSerializer(serializers.Serializer):
    itemId = serializers.CharField()  # noqa: N815
    article = serializers.CharField()
    status = serializers.ChoiceField(choices=ITEM_STATUSES)
    finding = serializers.CharField(help_text="Why, in the report's language.")
    citations = CitationSerializer(many=True)
    suggestion = serializers.CharField(
        help_text="The clause our own template writes for this item ('' when none)."
    )


class ReviewErrorSerializer(serializers.Serializer):
    code = serializers.CharField(
        help_text="ASSET_FAILED, ASSET_NOT_READY, EMPTY_DOCUMENT, REVIEW_TIMEOUT,"
        " REVIEW_INTERRUPTED, SERVICE_UNAVAILABLE, INTERNAL_ERROR"
    )
    message = serializers.CharField()
    details = serializers.JSONField(allow_null=True)


def _timestamp(value: Any) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value is not None else None


class ReviewSerializer(serializers.ModelSerializer):
    """A review: its status and, once completed, its verdict, counts and items."""

    documentType = serializers.CharField(source="document_type")  # noqa: N815
    assetId = serializers.UUIDField(source="asset_id")  # noqa: N815
    vendorId = serializers.UUIDField(source="vendor_id", allow_null=True)  # noqa: N815
    documentLanguage = serializers.SerializerMethodField()  # noqa: N815
    verdict = serializers.SerializerMethodField()
    counts = serializers.SerializerMethodField()
    items = serializers.SerializerMethodField()
    stage = serializers.SerializerMethodField()
    createdAt = serializers.SerializerMethodField()  # noqa: N815
    completedAt = serializers.SerializerMethodField()  # noqa: N815
    error = serializers.SerializerMethodField()
    rulesetVersion = serializers.SerializerMethodField()  # noqa: N815
    method = serializers.SerializerMethodField()

    class Meta:
        model = Review
        fields = [
            "id", "status", "documentType", "assetId", "vendorId", "language",
            "documentLanguage", "verdict", "counts", "items", "stage", "createdAt",
            "completedAt", "error", "rulesetVersion", "method",
        ]  # fmt: skip
        read_only_fields = fields

    def _completed(self, review: Review) -> bool:
        return review.status == ReviewStatus.COMPLETED

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_documentLanguage(self, review: Review) -> str | None:  # noqa: N802
        return review.document_language or None

    @extend_schema_field(serializers.ChoiceField(choices=VERDICTS, allow_null=True))
    def get_verdict(self, review: Review) -> str | None:
        return review.verdict if self._completed(review) else None

    @extend_schema_field(
        serializers.DictField(
            child=serializers.IntegerField(),
            allow_null=True,
            help_text="Items per status: " + ", ".join(ITEM_STATUSES) + ".",
        )
    )
    def get_counts(self, review: Review) -> dict[str, int] | None:
        return review.counts if self._completed(review) else None

    @extend_schema_field(ReviewItemSerializer(many=True))
    def get_items(self, review: Review) -> list[dict[str, Any]]:
        return list(review.items) if self._completed(review) else []

    @extend_schema_field(
        serializers.ChoiceField(
            choices=list(STAGES),
            allow_null=True,
            help_text="What a processing review is doing; null once it ended.",
        )
    )
    def get_stage(self, review: Review) -> str | None:
        return review.stage or None

    @extend_schema_field(serializers.DateTimeField())
    def get_createdAt(self, review: Review) -> str | None:  # noqa: N802
        return _timestamp(review.created_at)

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_completedAt(self, review: Review) -> str | None:  # noqa: N802
        return _timestamp(review.completed_at)

    @extend_schema_field(
        serializers.CharField(
            allow_null=True,
            help_text="The checklist's rule set the document was checked against.",
        )
    )
    def get_rulesetVersion(self, review: Review) -> str | None:  # noqa: N802
        return review.ruleset if self._completed(review) else None

    @extend_schema_field(
        serializers.ChoiceField(
            choices=["rules", "rules+model"],
            allow_null=True,
            help_text="rules: offline only; rules+model: a language model was asked as well.",
        )
    )
    def get_method(self, review: Review) -> str | None:
        return review.method if self._completed(review) else None

    @extend_schema_field(ReviewErrorSerializer(allow_null=True))
    def get_error(self, review: Review) -> dict[str, Any] | None:
        return events.error_of(review)


class ReviewListItemSerializer(ReviewSerializer):
    """A list item: the review without its items (a list stays small)."""

    class Meta(ReviewSerializer.Meta):
        fields = [field for field in ReviewSerializer.Meta.fields if field != "items"]
        read_only_fields = fields


class ReviewListFiltersSerializer(serializers.Serializer):
    assetId = serializers.UUIDField(required=False)  # noqa: N815
    vendorId = serializers.UUIDField(required=False)  # noqa: N815
    documentType = serializers.ChoiceField(  # noqa: N815
        choices=list(REVIEWABLE_TYPES), required=False
    )
    status = serializers.ChoiceField(choices=ReviewStatus.choices, required=False)
