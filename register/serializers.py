"""API shapes of the register: camelCase names, list fields as in the structured create body.

A list entry is a plain text or an object (a recipient `{name, role, country, safeguard}`, a
retention rule `{category, period, criteria}`, a data category `{name, category}`, a measure
`{name, family}` ...), validated by the same fields as the document create body
(`register.gdpr_inputs`, `register.concept_inputs`). Legal bases and Art. 9(2) conditions are
stored as `{code, wording}` (register.fields); a vendor's transfer mechanism as its code and
wording.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from gdpr.composition.recognition import TRANSFER_SAFEGUARDS, is_in_eea, recognise_safeguard
from organizations.scoped_fields import OrganizationPrimaryKeyField
from register.concept_inputs import data_category_list, security_measure_list
from register.fields import (
    Art9ConditionField,
    LegalBasisEntryField,
    PurposeSerializer,
    SubProcessorSerializer,
    entry_list,
)
from register.gdpr_inputs import (
    DpiaScreeningFields,
    RecipientSerializer,
    RetentionSerializer,
    SafeguardField,
    TextField,
    string_or_object_list,
    text_list,
)
from register.models import (
    ActivityRole,
    DpaStatus,
    ProcessingActivity,
    Transfer,
    Vendor,
    VendorRole,
)
from register.selectors import dpia_screening


class DpiaScreeningSerializer(DpiaScreeningFields):
    """The DPIA screening answers (WP248 criteria, Art. 35(3)), keyed like the DPIA inputs.

    Absent or null means not answered: the criterion stays unknown, never met.
    """

    # Null is "not answered" here, as for the yes/no answers; the create body refuses it.
    approximateSubjects = serializers.IntegerField(  # noqa: N815
        required=False, allow_null=True, min_value=0
    )

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {key: ["Unknown screening question."] for key in unknown}
                )
        return super().to_internal_value(data)


# Component names prefixed "Register": the create body has its own Transfer and
# ProcessingActivity shapes, and OpenAPI components need distinct names.
@extend_schema_serializer(component_name="RegisterTransfer")
class TransferSerializer(serializers.ModelSerializer):
    """A transfer outside the EEA, kept by the services from vendors and recipients."""

    activityId = serializers.UUIDField(source="activity_id", allow_null=True)  # noqa: N815
    vendorId = serializers.UUIDField(source="vendor_id", allow_null=True)  # noqa: N815
    mechanism = serializers.CharField(help_text='A transfer mechanism code; "" when none.')
    mechanismWording = serializers.CharField(source="mechanism_wording")  # noqa: N815

    class Meta:
        model = Transfer
        fields = ["id", "activityId", "vendorId", "recipient", "country", "mechanism",
                  "mechanismWording", "details"]  # fmt: skip
        read_only_fields = fields


class ScreeningResultSerializer(serializers.Serializer):
    required = serializers.BooleanField(help_text="Two WP248 criteria or an Art. 35(3) case.")
    criteriaMet = serializers.ListField(child=serializers.CharField())  # noqa: N815
    unknown = serializers.ListField(child=serializers.CharField())


@extend_schema_serializer(component_name="RegisterProcessingActivity")
class ProcessingActivitySerializer(serializers.ModelSerializer):
    """A processing activity of the register (Art. 30(1), or 30(2) as a processor)."""

    reference = TextField(max_length=100, help_text="The register's own ID (imports match it).")
    description = TextField()
    purposes = string_or_object_list(
        PurposeSerializer, help_text="Texts, or {purpose, legalBasis}."
    )
    legalBases = entry_list(LegalBasisEntryField(), source="legal_bases")  # noqa: N815
    dataSubjects = text_list(source="data_subjects")  # noqa: N815
    dataCategories = data_category_list(source="data_categories")  # noqa: N815
    specialCategories = data_category_list(source="special_categories")  # noqa: N815
    art9Conditions = entry_list(Art9ConditionField(), source="art9_conditions")  # noqa: N815
    retention = string_or_object_list(
        RetentionSerializer, help_text="Texts, or {category, period, criteria}."
    )
    securityMeasures = security_measure_list(source="security_measures")  # noqa: N815
    systems = text_list()
    recipients = string_or_object_list(
        RecipientSerializer,
        help_text="Recipients that are not vendors: texts, or {name, role, country, safeguard}.",
    )
    owner = TextField(max_length=200)
    role = serializers.ChoiceField(choices=ActivityRole.choices, required=False)
    jointControllers = text_list(source="joint_controllers")  # noqa: N815
    dpiaScreening = DpiaScreeningSerializer(source="dpia_screening", required=False)  # noqa: N815
    dpiaScreeningResult = serializers.SerializerMethodField()  # noqa: N815
    consentWithdrawal = TextField(  # noqa: N815
        source="consent_withdrawal", help_text="How consent is withdrawn (Art. 7(3))."
    )
    nextReviewDate = serializers.DateField(  # noqa: N815
        source="next_review_date", required=False, allow_null=True
    )
    vendorIds = OrganizationPrimaryKeyField(  # noqa: N815
        object_type="vendor",
        source="vendors",
        many=True,
        required=False,
        queryset=Vendor.objects.none(),
        help_text="Vendors of your register (processors, recipients) this activity uses.",
    )
    transfers = TransferSerializer(many=True, read_only=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)  # noqa: N815
    updatedAt = serializers.DateTimeField(source="updated_at", read_only=True)  # noqa: N815

    class Meta:
        model = ProcessingActivity
        fields = [
            "id", "name", "reference", "description", "purposes", "legalBases", "dataSubjects",
            "dataCategories", "specialCategories", "art9Conditions", "retention",
            "securityMeasures", "systems", "recipients", "owner", "role", "jointControllers",
            "dpiaScreening", "dpiaScreeningResult", "consentWithdrawal", "nextReviewDate",
            "vendorIds", "transfers", "revision", "createdAt", "updatedAt",
        ]  # fmt: skip
        read_only_fields = ["id", "revision"]
        # Uniqueness per organization is the service's (a 409 CONFLICT), not a 400 here.
        validators: list[Any] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        organization = self.context.get("organization")
        if organization is not None:
            # Another organization's vendor id is refused like one that does not exist.
            self.fields["vendorIds"].child_relation.queryset = Vendor.objects.filter(
                organization=organization
            )

    @extend_schema_field(ScreeningResultSerializer)
    def get_dpiaScreeningResult(self, activity: ProcessingActivity) -> dict[str, Any]:  # noqa: N802
        screening = dpia_screening(activity)
        return {
            "required": screening.required,
            "criteriaMet": [
                c.label for c in (*screening.criteria, *screening.mandatory_cases) if c.met
            ],
            "unknown": [c.label for c in screening.unknown],
        }


@extend_schema_serializer(component_name="RegisterProcessingActivityListItem")
class ProcessingActivityListItemSerializer(ProcessingActivitySerializer):
    """A list item: the activity without the computed screening (one query less per row)."""

    class Meta(ProcessingActivitySerializer.Meta):
        fields = [f for f in ProcessingActivitySerializer.Meta.fields if f != "dpiaScreeningResult"]


@extend_schema_field(
    {
        "anyOf": [
            {"type": "string", "enum": list(TRANSFER_SAFEGUARDS)},
            {"type": "string", "description": "Free text naming the mechanism, kept verbatim."},
        ],
        "description": "Written as a code or text; returned as the recognised code"
        " (transferMechanismWording keeps the text).",
    }
)
class MechanismField(SafeguardField):
    """Text or code in; the recognised code out (the wording is its own field)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("allow_blank", True)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if data in ("", None):
            return ""
        return super().to_internal_value(data)

    def to_representation(self, value: Any) -> str:
        return str(value or "")


class DpaReviewSerializer(serializers.Serializer):
    """The last completed review of the vendor's DPA (GET /api/v1/reviews/{id} has it all)."""

    id = serializers.UUIDField(help_text="The review's id.")
    hasGaps = serializers.BooleanField(help_text="Items missing or weak.")  # noqa: N815
    missingItems = serializers.ListField(  # noqa: N815
        child=serializers.CharField(), help_text="Checklist ids of the items found missing."
    )
    reviewedAt = serializers.DateTimeField()  # noqa: N815


class VendorSerializer(serializers.ModelSerializer):
    """A processor or other recipient of personal data."""

    reference = TextField(max_length=100, help_text="The register's own ID (imports match it).")
    address = TextField()
    country = TextField(max_length=100, help_text="Country name or ISO code.")
    role = serializers.ChoiceField(choices=VendorRole.choices, required=False)
    services = TextField()
    dpaStatus = serializers.ChoiceField(  # noqa: N815
        source="dpa_status", choices=DpaStatus.choices, required=False
    )
    dpaSignedOn = serializers.DateField(  # noqa: N815
        source="dpa_signed_on", required=False, allow_null=True
    )
    subProcessors = string_or_object_list(  # noqa: N815
        SubProcessorSerializer,
        source="sub_processors",
        help_text="Texts, or {name, country, service, address, safeguard}.",
    )
    transferMechanism = MechanismField(source="transfer_mechanism", required=False)  # noqa: N815
    transferMechanismWording = serializers.CharField(  # noqa: N815
        source="transfer_mechanism_wording", read_only=True
    )
    outsideEea = serializers.SerializerMethodField()  # noqa: N815
    activityIds = serializers.PrimaryKeyRelatedField(  # noqa: N815
        source="activities", many=True, read_only=True
    )
    transfers = TransferSerializer(many=True, read_only=True)
    dpaReview = serializers.SerializerMethodField(  # noqa: N815
        help_text="The last review of the vendor's DPA (POST /api/v1/reviews with vendorId);"
        " null when none has completed."
    )
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)  # noqa: N815
    updatedAt = serializers.DateTimeField(source="updated_at", read_only=True)  # noqa: N815

    class Meta:
        model = Vendor
        fields = [
            "id", "name", "reference", "address", "country", "outsideEea", "role", "services",
            "dpaStatus", "dpaSignedOn", "subProcessors", "transferMechanism",
            "transferMechanismWording", "activityIds", "transfers", "dpaReview", "revision",
            "createdAt", "updatedAt",
        ]  # fmt: skip
        read_only_fields = ["id", "revision"]
        validators: list[Any] = []

    @extend_schema_field(DpaReviewSerializer(allow_null=True))
    def get_dpaReview(self, vendor: Vendor) -> dict[str, Any] | None:  # noqa: N802
        if vendor.dpa_review_id is None or vendor.dpa_reviewed_at is None:
            return None
        return DpaReviewSerializer(
            {
                "id": vendor.dpa_review_id,
                "hasGaps": bool(vendor.dpa_review_has_gaps),
                "missingItems": list(vendor.dpa_review_missing_items or []),
                "reviewedAt": vendor.dpa_reviewed_at,
            }
        ).data

    def get_outsideEea(self, vendor: Vendor) -> bool:  # noqa: N802
        return bool(vendor.country) and not is_in_eea(vendor.country)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "transfer_mechanism" in attrs:
            wording = attrs["transfer_mechanism"]
            attrs["transfer_mechanism_wording"] = wording
            attrs["transfer_mechanism"] = (recognise_safeguard(wording) or "") if wording else ""
        return attrs


class RegisterListFiltersSerializer(serializers.Serializer):
    """Filters both lists share."""

    search = TextField(max_length=200, help_text="In the name, reference and description.")
    reference = TextField(max_length=100)


class ActivityListFiltersSerializer(RegisterListFiltersSerializer):
    role = serializers.ChoiceField(choices=ActivityRole.choices, required=False)
    vendorId = serializers.UUIDField(required=False)  # noqa: N815
    reviewDueBefore = serializers.DateField(  # noqa: N815
        required=False, help_text="Activities whose next review date is on or before this day."
    )


class VendorListFiltersSerializer(RegisterListFiltersSerializer):
    role = serializers.ChoiceField(choices=VendorRole.choices, required=False)
    country = TextField(max_length=100)
    dpaStatus = serializers.ChoiceField(choices=DpaStatus.choices, required=False)  # noqa: N815
    outsideEea = serializers.BooleanField(required=False, allow_null=True, default=None)  # noqa: N815


class TransferListFiltersSerializer(serializers.Serializer):
    country = TextField(max_length=100)
    mechanism = TextField(max_length=60, help_text='A mechanism code; "none" for no mechanism.')
    activityId = serializers.UUIDField(required=False)  # noqa: N815
    vendorId = serializers.UUIDField(required=False)  # noqa: N815
