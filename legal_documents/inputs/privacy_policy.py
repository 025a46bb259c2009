"""The create body of PRIVACY_POLICY, validated at the app's edge (DRF)."""

from __future__ import annotations

from legal_documents.inputs.fields import (
    ProcessingDescriptionSerializer,
    TextField,
    flag,
    text_list,
)


class PrivacyPolicyInputSerializer(ProcessingDescriptionSerializer):
    """Create-body fields of a privacy notice."""

    legitimateInterests = TextField()  # noqa: N815
    representative = TextField()
    contactEmail = TextField()  # noqa: N815
    dataCollectedFromSubject = flag()  # noqa: N815
    dataSources = text_list()  # noqa: N815
    statutoryRequirement = TextField()  # noqa: N815
    automatedDecisions = flag()  # noqa: N815
    automatedDecisionLogic = TextField()  # noqa: N815
    supervisoryAuthority = TextField()  # noqa: N815
