"""common.evidence: HMAC signatures with the evidence key, by key id, per purpose."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from common.evidence import (
    AUDIT_CHECKPOINT,
    PACKAGE_MANIFEST,
    Signature,
    key_id,
    sign,
    signature_problem,
)

KEY = "an-evidence-key-of-enough-characters-0123456789"
PAYLOAD = {"headHash": "ab" * 32, "headEventId": 7}


def test_a_signature_verifies_and_names_its_key_without_revealing_it(settings):
    settings.EVIDENCE_SIGNING_KEY = KEY
    signature = sign(purpose=AUDIT_CHECKPOINT, payload=PAYLOAD)
    assert signature.key_id == key_id(KEY)
    assert KEY not in signature.key_id
    assert signature_problem(purpose=AUDIT_CHECKPOINT, payload=PAYLOAD, signature=signature) is None


def test_a_signature_of_one_kind_of_evidence_is_not_valid_for_another(settings):
    settings.EVIDENCE_SIGNING_KEY = KEY
    signature = sign(purpose=AUDIT_CHECKPOINT, payload=PAYLOAD)
    problem = signature_problem(purpose=PACKAGE_MANIFEST, payload=PAYLOAD, signature=signature)
    assert problem == "signature does not match"


def test_a_changed_payload_or_a_missing_signature_is_refused(settings):
    settings.EVIDENCE_SIGNING_KEY = KEY
    signature = sign(purpose=AUDIT_CHECKPOINT, payload=PAYLOAD)
    changed = {**PAYLOAD, "headEventId": 8}
    assert signature_problem(purpose=AUDIT_CHECKPOINT, payload=changed, signature=signature)
    assert (
        signature_problem(purpose=AUDIT_CHECKPOINT, payload=PAYLOAD, signature=None) == "not signed"
    )
    forged = Signature(key_id=signature.key_id, value="0" * 64)
    assert signature_problem(purpose=AUDIT_CHECKPOINT, payload=PAYLOAD, signature=forged)


def test_a_short_key_is_refused_with_the_variable_named(settings):
    settings.EVIDENCE_SIGNING_KEY = "short"
    with pytest.raises(ImproperlyConfigured, match="EVIDENCE_SIGNING_KEY"):
        sign(purpose=AUDIT_CHECKPOINT, payload=PAYLOAD)
