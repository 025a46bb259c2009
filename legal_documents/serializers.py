"""Request and response shapes of the legal document endpoints (camelCase, docs/API.md)."""

from __future__ import annotations

import json
from difflib import get_close_matches
from functools import cache
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.fields import BoundedTextField
from gdpr.composition.completeness import STATUSES as COMPLETENESS_STATUSES
from gdpr.i18n import COMPLETE_LANGUAGES, DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES
from legal_documents.inputs.registry import DOCUMENT_TYPES, get_document_type
from legal_documents.models import LegalDocument, Status
from legal_documents.selectors import legal_document_assessment
from legal_documents.services.jobs import estimated_completion


def iso(value: Any) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value else None


DOCUMENT_TYPE_CHOICES = sorted(DOCUMENT_TYPES)


class DocumentTypeField(serializers.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=DOCUMENT_TYPE_CHOICES, **kwargs)


class LanguageField(serializers.CharField):
    """A document language: only languages whose catalogs are complete are accepted."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 5)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        language = str(super().to_internal_value(data)).strip().lower()
        if language not in COMPLETE_LANGUAGES:
            accepted = ", ".join(COMPLETE_LANGUAGES)
            raise serializers.ValidationError(
                f"Unsupported language {language!r}; accepted: {accepted}."
            )
        return language


class CreateDocumentSerializer(serializers.Serializer):
    """The create body: `documentType`, `language` and the fields that type declares.

    Validation is delegated to the type's own input serializer, so the schema of every type
    lives in its module (legal_documents/inputs/, attached to the gdpr type by its registry).
    """

    documentType = DocumentTypeField()  # noqa: N815
    language = LanguageField(
        required=False,
        default=DEFAULT_LANGUAGE,
        help_text="Language of the document: " + ", ".join(COMPLETE_LANGUAGES) + " (default en).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        spec = get_document_type(attrs["documentType"])
        body = {
            key: value
            for key, value in self.initial_data.items()
            if key not in {"documentType", "language"}
        }
        type_serializer = spec.input_serializer(data=body)
        type_serializer.is_valid(raise_exception=True)
        own = set(type_serializer.fields)
        # One record per processing activity serves every type: a field of another type is
        # ignored and reported; a name no type knows is a typo, refused with the nearest name.
        foreign = sorted(set(body) - own)
        unknown = [name for name in foreign if name not in shared_vocabulary()]
        if unknown:
            raise serializers.ValidationError(
                {name: [_unknown_field_message(name, spec.name, own)] for name in unknown}
            )
        attrs["inputs"] = _json_ready(type_serializer.validated_data)
        attrs["warnings"] = [
            {
                "code": "FIELD_NOT_USED",
                "field": name,
                "message": f"{name} is not an input of {spec.name}: accepted and ignored.",
            }
            for name in foreign
        ]
        return attrs


@cache
def shared_vocabulary() -> frozenset[str]:
    """Every create-body field name some document type accepts."""
    return frozenset(
        name for spec in DOCUMENT_TYPES.values() for name in spec.input_serializer().fields
    )


def _unknown_field_message(name: str, type_name: str, own: set[str]) -> str:
    """The refusal of a name no type uses, with the closest known one (its own type's first)."""
    close = get_close_matches(name, sorted(own), n=1) or get_close_matches(
        name, sorted(shared_vocabulary()), n=1
    )
    hint = f" Did you mean {close[0]!r}?" if close else ""
    return f"Unknown field for {type_name}.{hint}"


class WarningSerializer(serializers.Serializer):
    """Something accepted that the caller may not expect (e.g. a field this type ignores)."""

    code = serializers.CharField()
    field = serializers.CharField()
    message = serializers.CharField()


def _json_ready(value: Any) -> Any:
    """Validated data may hold UUIDs, dates and datetimes; the inputs column stores JSON."""
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class ComplianceSummarySerializer(serializers.Serializer):
    complete = serializers.BooleanField()
    missing = serializers.ListField(child=serializers.CharField())


class ContentSerializer(serializers.Serializer):
    markdown = serializers.CharField()
    html = serializers.CharField()
    text = serializers.CharField()


class ConceptSerializer(serializers.Serializer):
    field = serializers.CharField(help_text="The input field, e.g. dataCategories, legalBasis.")
    wording = serializers.CharField(help_text="The wording as the DPO gave it.")
    scheme = serializers.ChoiceField(
        choices=[
            "data-category", "data-category-group", "security-measure", "rights-measure",
            "legal-basis", "art-9-condition", "transfer-mechanism", "recipient-role", "country",
        ],
    )  # fmt: skip
    code = serializers.CharField(
        help_text="The concept's code: e.g. health, art-9, encryption, consent, a (Art. 9(2)(a)),"
        " standard-contractual-clauses, processor, DE."
    )


class UnclassifiedSerializer(serializers.Serializer):
    field = serializers.CharField()
    wording = serializers.CharField()
    scheme = serializers.CharField(help_text="The scheme none of whose concepts it names.")


RISK_LEVELS = ["low", "medium-likely", "medium-severe-impact", "high"]
BREACH_RISK_LEVELS = ["unlikely", "risk", "high"]


class RiskRatingSerializer(serializers.Serializer):
    key = serializers.CharField(
        help_text="illegitimate-access, unwanted-modification, disappearance, or rights-*."
    )
    severity = serializers.IntegerField(min_value=1, max_value=4)
    likelihood = serializers.IntegerField(min_value=1, max_value=4)
    residualSeverity = serializers.IntegerField(min_value=1, max_value=4)  # noqa: N815
    residualLikelihood = serializers.IntegerField(min_value=1, max_value=4)  # noqa: N815
    level = serializers.ChoiceField(choices=RISK_LEVELS)
    residualLevel = serializers.ChoiceField(choices=RISK_LEVELS)  # noqa: N815


class BreachRatingSerializer(serializers.Serializer):
    riskLevel = serializers.ChoiceField(choices=BREACH_RISK_LEVELS)  # noqa: N815


class RatingsSerializer(serializers.Serializer):
    risks = RiskRatingSerializer(many=True, required=False, help_text="DPIA (CNIL PIA method).")
    breach = BreachRatingSerializer(required=False, help_text="Breach notification.")


def _decision(help_text: str) -> serializers.BooleanField:
    return serializers.BooleanField(required=False, allow_null=True, help_text=help_text)


class DecisionsSerializer(serializers.Serializer):
    """What the rules concluded; null: not decidable from the inputs (the document asks)."""

    dpiaRequired = _decision("Art. 35(1), (3), WP248: two criteria or an Art. 35(3) case.")  # noqa: N815
    dpiaCriteriaMet = serializers.ListField(child=serializers.CharField(), required=False)  # noqa: N815
    dpiaCriteriaUnknown = serializers.ListField(child=serializers.CharField(), required=False)  # noqa: N815
    dpiaArt35Cases = serializers.ListField(child=serializers.CharField(), required=False)  # noqa: N815
    art36PriorConsultation = _decision("Art. 36(1): a high residual risk remains.")  # noqa: N815
    art33Notification = _decision("Art. 33(1): notify the supervisory authority.")  # noqa: N815
    art33DeadlinePassed = _decision("The 72 hours are over.")  # noqa: N815
    art33NotifiedLate = _decision("Notified (or, unsent, now) after the 72 hours.")  # noqa: N815
    art34Communication = _decision("Art. 34(1): tell the data subjects.")  # noqa: N815
    art34Exception = serializers.ChoiceField(  # noqa: N815
        choices=["art-34-3-a", "art-34-3-b"], required=False, allow_null=True
    )
    art34PublicCommunication = _decision("Art. 34(3)(c): a public communication instead.")  # noqa: N815
    specialCategories = _decision("Art. 9(1) data is processed.")  # noqa: N815
    specialCategoriesWithoutCondition = _decision("Art. 9(1) data without an Art. 9(2) condition.")  # noqa: N815
    criminalData = _decision("Art. 10 data is processed.")  # noqa: N815
    criminalDataWithoutBasis = _decision("Art. 10 data without its basis.")  # noqa: N815
    transfersWithoutSafeguard = serializers.IntegerField(required=False)  # noqa: N815
    processorOutsideEea = _decision("The processor processes outside the EEA.")  # noqa: N815
    annexIIIMissingFamilies = serializers.ListField(  # noqa: N815
        child=serializers.CharField(), required=False
    )
    rightToPortability = _decision("Art. 20 applies.")  # noqa: N815
    rightToObject = _decision("Art. 21(1) applies.")  # noqa: N815
    rightToObjectToDirectMarketing = _decision("Art. 21(2) applies.")  # noqa: N815
    rightToWithdrawConsent = _decision("Art. 7(3) applies.")  # noqa: N815
    extensionInvoked = _decision("The Art. 12(3) extension is used.")  # noqa: N815


class AssessedTransferSerializer(serializers.Serializer):
    country = serializers.CharField(allow_null=True, help_text="ISO 3166-1 alpha-2, or null.")
    recipient = serializers.CharField(allow_null=True)
    mechanism = serializers.CharField(help_text="A transfer mechanism code; none: no safeguard.")
    adequacy = serializers.BooleanField(help_text="An adequacy decision covers the country.")
    adequacyLimited = serializers.BooleanField(  # noqa: N815
        help_text="The decision covers only some recipients (e.g. the EU-US DPF)."
    )
    needsSafeguard = serializers.BooleanField()  # noqa: N815


class DeadlinesSerializer(serializers.Serializer):
    awareAt = serializers.DateTimeField(required=False)  # noqa: N815
    art33Notification = serializers.DateTimeField(required=False)  # noqa: N815
    requestReceived = serializers.DateField(required=False)  # noqa: N815
    responseDue = serializers.DateField(required=False)  # noqa: N815
    extendedResponseDue = serializers.DateField(required=False)  # noqa: N815


class AssessmentSerializer(serializers.Serializer):
    """The legal conclusions as codes, numbers and ISO dates: the same in every language."""

    documentType = serializers.CharField()  # noqa: N815
    concepts = ConceptSerializer(many=True)
    unclassified = UnclassifiedSerializer(many=True)
    ratings = RatingsSerializer()
    decisions = DecisionsSerializer()
    transfers = AssessedTransferSerializer(many=True)
    deadlines = DeadlinesSerializer()
    activities = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="A record written from the whole register: one assessment per activity.",
    )


class DocumentSerializer(serializers.ModelSerializer):
    """The get response; `content` is null until the document has content."""

    documentType = serializers.CharField(source="document_type")  # noqa: N815
    status = serializers.CharField()
    stage = serializers.CharField()
    version = serializers.IntegerField()
    rulesetVersion = serializers.CharField(source="ruleset_version")  # noqa: N815
    language = serializers.CharField()
    clientCompanyId = serializers.UUIDField(source="client_company_id", allow_null=True)  # noqa: N815
    dpoUserId = serializers.IntegerField(source="creator_id")  # noqa: N815
    inputs = serializers.JSONField()
    content = serializers.SerializerMethodField()
    error = serializers.SerializerMethodField()
    compliance = serializers.SerializerMethodField()
    createdAt = serializers.DateTimeField(source="created_at")  # noqa: N815
    updatedAt = serializers.DateTimeField(source="updated_at")  # noqa: N815
    completedAt = serializers.DateTimeField(source="completed_at", allow_null=True)  # noqa: N815
    estimatedCompletionTime = serializers.SerializerMethodField()  # noqa: N815
    stale = serializers.SerializerMethodField(
        help_text="A register entry the content was written from changed since (refresh it)."
    )
    staleSince = serializers.DateTimeField(source="stale_since", allow_null=True)  # noqa: N815
    assessment = serializers.SerializerMethodField(
        help_text="The legal conclusions from the inputs and answers, computed on read: codes,"
        " numbers and ISO dates that do not depend on the language. Null when it cannot be"
        " computed. Not in list items."
    )

    class Meta:
        model = LegalDocument
        fields = [
            "id", "documentType", "status", "stage", "version", "rulesetVersion", "language",
            "clientCompanyId", "dpoUserId", "inputs", "content", "error", "compliance",
            "createdAt", "updatedAt", "completedAt", "estimatedCompletionTime", "stale",
            "staleSince", "assessment",
        ]  # fmt: skip
        read_only_fields = fields

    @extend_schema_field(AssessmentSerializer(allow_null=True))
    def get_assessment(self, document: LegalDocument) -> dict[str, Any] | None:
        return legal_document_assessment(document=document)

    @extend_schema_field(ContentSerializer(allow_null=True))
    def get_content(self, document: LegalDocument) -> dict[str, str] | None:
        if document.status != Status.COMPLETED or not document.has_content:
            return None
        return {
            "markdown": document.content_markdown,
            "html": document.content_html,
            "text": document.content_text,
        }

    @extend_schema_field(ErrorSerializer(allow_null=True))
    def get_error(self, document: LegalDocument) -> dict[str, str] | None:
        if document.status != Status.FAILED:
            return None
        return {"code": document.error_code, "message": document.error_message}

    @extend_schema_field(ComplianceSummarySerializer(allow_null=True))
    def get_compliance(self, document: LegalDocument) -> dict[str, Any] | None:
        if not document.has_content or document.compliance_complete is None:
            return None
        return {"complete": document.compliance_complete, "missing": document.compliance_missing}

    @extend_schema_field(serializers.BooleanField())
    def get_stale(self, document: LegalDocument) -> bool:
        return document.stale_since is not None

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_estimatedCompletionTime(self, document: LegalDocument) -> str | None:  # noqa: N802
        return estimated_completion(document)


class DocumentListItemSerializer(DocumentSerializer):
    """List items omit the content (fetch one document for it)."""

    class Meta(DocumentSerializer.Meta):
        fields = [
            name
            for name in DocumentSerializer.Meta.fields
            if name not in {"content", "inputs", "assessment"}
        ]
        read_only_fields = fields


class CreatedDocumentSerializer(DocumentSerializer):
    """The create response; `warnings` (given in the context) lists the fields ignored."""

    warnings = serializers.SerializerMethodField(
        help_text="Fields of the shared input vocabulary this document type does not use:"
        " accepted and ignored (code FIELD_NOT_USED). Empty when every field was used."
    )

    class Meta(DocumentSerializer.Meta):
        fields = [
            "id", "documentType", "status", "stage", "version", "rulesetVersion", "language",
            "createdAt", "estimatedCompletionTime", "warnings",
        ]  # fmt: skip
        read_only_fields = fields

    @extend_schema_field(WarningSerializer(many=True))
    def get_warnings(self, document: LegalDocument) -> list[dict[str, str]]:
        return list(self.context.get("warnings", []))


class ListFiltersSerializer(serializers.Serializer):
    documentType = DocumentTypeField(required=False)  # noqa: N815
    status = serializers.ChoiceField(choices=Status.choices, required=False)
    language = serializers.ChoiceField(choices=SUPPORTED_LANGUAGES, required=False)
    stale = serializers.BooleanField(
        required=False,
        default=None,
        allow_null=True,
        help_text="true: only documents whose register entries changed since they were written.",
    )


class ComplianceItemSerializer(serializers.Serializer):
    id = serializers.CharField()
    article = serializers.CharField()
    requirement = serializers.CharField()
    status = serializers.ChoiceField(
        choices=list(COMPLETENESS_STATUSES),
        help_text="present; missing; needs-classification: the item's only open points ask"
        " whether a data category is special-category data (Art. 9(1)), for the DPO to answer"
        " (not complete, listed among the missing items).",
    )
    section = serializers.CharField()


class ComplianceReportSerializer(serializers.Serializer):
    documentType = serializers.CharField()  # noqa: N815
    rulesetVersion = serializers.CharField()  # noqa: N815
    documentRulesetVersion = serializers.CharField()  # noqa: N815
    complete = serializers.BooleanField()
    items = ComplianceItemSerializer(many=True)


class ManualEditSerializer(serializers.Serializer):
    markdown = BoundedTextField(allow_blank=False)
    changeReason = BoundedTextField(max_length=500, allow_blank=False)  # noqa: N815


class RefreshSummarySerializer(serializers.Serializer):
    changedEntries = serializers.ListField(child=serializers.CharField())  # noqa: N815
    rewrittenSections = serializers.ListField(child=serializers.CharField())  # noqa: N815
    newVersion = serializers.BooleanField()  # noqa: N815


class RefreshedDocumentSerializer(DocumentSerializer):
    """The document after a refresh, with what the refresh changed."""

    refresh = RefreshSummarySerializer()

    class Meta(DocumentSerializer.Meta):
        fields = [*DocumentSerializer.Meta.fields, "refresh"]
        read_only_fields = fields
