"""The create body of DATA_SUBJECT_REQUEST_FORM, validated at the app's edge (DRF)."""

from __future__ import annotations

from rest_framework import serializers

from gdpr.doctypes.data_subject_request_form import RIGHTS
from legal_documents.inputs.fields import DocumentInputSerializer, TextField, flag, legal_bases


class DataSubjectRequestFormInputSerializer(DocumentInputSerializer):
    """Create-body fields: a blank form, or one prefilled for a received request."""

    requesterName = TextField()  # noqa: N815
    requesterContact = TextField()  # noqa: N815
    receivedAt = serializers.DateField(required=False)  # noqa: N815
    # When the request was answered: its Art. 12(3) clock (and its reminders) stops
    # (legal_documents.services.closing; also set later by the `close` action).
    answeredAt = serializers.DateTimeField(required=False)  # noqa: N815
    rightsInvoked = serializers.ListField(  # noqa: N815
        child=serializers.ChoiceField(choices=RIGHTS), required=False
    )
    requestDetails = TextField()  # noqa: N815
    identityVerification = TextField()  # noqa: N815
    contactEmail = TextField()  # noqa: N815
    dpoContact = TextField()  # noqa: N815
    supervisoryAuthority = TextField()  # noqa: N815
    # The bases of the processing concerned decide which rights the form offers (Art. 20, 21).
    legalBasis = legal_bases()  # noqa: N815
    processedByAutomatedMeans = flag()  # noqa: N815
    objectionGrounds = TextField()  # noqa: N815
    retentionDuty = TextField()  # noqa: N815
    # The controller's Member State (and region) picks the public holidays that move the
    # Art. 12(3) deadlines (Reg. 1182/71 Art. 2(1), 3(4)); companyDetails serves without them.
    country = TextField(
        help_text="Member State of the controller's establishment (ISO code such as 'IT', or"
        " its name): its public holidays move the deadlines (Regulation 1182/71 Art. 3(4))."
        " Default: the country in companyDetails; without one, only the days common to the"
        " Member States count and the form asks for the country."
    )
    region = TextField(
        help_text="Region with public holidays of its own, as a code or a name: a German Land"
        " ('BY', 'Bayern', 'Bavaria'), a Spanish community ('CT', 'Cataluña'), an Austrian"
        " state ('9', 'Wien')... (the `holidays` package's subdivisions)."
    )
    publicHolidays = serializers.ListField(  # noqa: N815
        child=serializers.DateField(),
        required=False,
        max_length=100,
        help_text="Further public holidays of the controller (dates), added to the country's.",
    )
    workingDays = serializers.ListField(  # noqa: N815
        child=serializers.DateField(),
        required=False,
        max_length=100,
        help_text="Dates that count as working days although listed as public holidays for"
        " the country or region (e.g. a regional holiday the controller's place does not keep).",
    )
