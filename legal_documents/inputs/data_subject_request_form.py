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
    # National public holidays of the controller's Member State (Reg. 1182/71 Art. 3(4)).
    publicHolidays = serializers.ListField(  # noqa: N815
        child=serializers.DateField(), required=False, max_length=100
    )
