"""Which rights apply given the legal bases (Art. 7(3), 20, 21)."""

from __future__ import annotations

from gdpr.composition.rights import applicable_rights, complaint_text


def test_portability_needs_consent_or_contract_and_automated_processing() -> None:
    assert applicable_rights(bases={"consent"}).portability is True
    assert applicable_rights(bases={"contract"}, automated_processing=False).portability is False
    assert applicable_rights(bases={"contract"}, automated_processing=None).portability is None
    assert applicable_rights(bases={"legal-obligation"}).portability is False


def test_objection_needs_public_task_or_legitimate_interests() -> None:
    assert applicable_rights(bases={"public-task"}).objection is True
    assert applicable_rights(bases={"legitimate-interests"}).objection is True
    assert applicable_rights(bases={"contract", "consent"}).objection is False


def test_direct_marketing_objection_whatever_the_basis() -> None:
    rights = applicable_rights(bases={"consent"}, direct_marketing=True)
    assert rights.direct_marketing_objection and rights.objection is False


def test_withdrawal_where_consent_is_a_basis_and_unknown_bases_stay_conditional() -> None:
    assert applicable_rights(bases={"consent", "contract"}).withdraw_consent is True
    assert applicable_rights(bases={"contract"}).withdraw_consent is False
    unknown = applicable_rights(bases=set())
    assert (unknown.portability, unknown.objection, unknown.withdraw_consent) == (None, None, None)


def test_complaint_names_the_competent_authority_only_as_an_example() -> None:
    text = complaint_text("the CNIL")
    assert "habitual residence" in text and "for example contact the CNIL" in text
    assert "habitual residence" in complaint_text(None)
