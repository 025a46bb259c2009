"""Template text of a record of processing activities (Art. 30)."""

from __future__ import annotations

from gdpr.composition.context import CompositionContext
from gdpr.composition.erasure_limits import write_erasure_limits
from gdpr.composition.inputs import ProcessingActivity
from gdpr.composition.markdown import escape_block, escape_inline, join_blocks
from gdpr.composition.markdown import to_be_completed as marker
from gdpr.composition.purpose_bases import write_purpose_bases
from gdpr.composition.special_categories import write_sensitive_data
from gdpr.composition.writers.common import (
    controller_identity,
    dpo_line,
    legal_basis_text,
    list_or_marker,
    transfers_text,
)
from gdpr.i18n import _, format_number

EXEMPTION_THRESHOLD = 250


def write_controller(context: CompositionContext) -> str:
    joint = context.items("jointControllers")
    has_joint = context.flag("hasJointControllers")
    if joint:
        joint_line = _("- **Joint controllers:** ") + ", ".join(escape_inline(j) for j in joint)
    elif has_joint:
        joint_line = _("- **Joint controllers:** ") + marker(_("name and contact of each"))
    else:
        joint_line = _("- **Joint controllers:** none")
    representative = context.inline("representative") or _(
        "none (controller established in the EU)"
    )
    return join_blocks(
        controller_identity(context)
        + _(
            "\n{joint_line}\n- **Representative (Art. 27):** {representative}\n",
            joint_line=joint_line,
            representative=representative,
        )
        + dpo_line(context)
    )


def write_purposes(context: CompositionContext) -> str:
    activity: ProcessingActivity | None = context.value("processingActivity")
    return join_blocks(
        _("Processing activity: **{name}**", name=escape_inline(activity.name))
        if activity
        else None,
        escape_block(activity.description) if activity and activity.description else None,
        list_or_marker(context, "purposes", _("Purposes"), _("the purposes of the processing")),
        legal_basis_text(context),
    )


def write_categories(context: CompositionContext) -> str:
    return join_blocks(
        list_or_marker(
            context,
            "dataSubjects",
            _("Categories of data subjects"),
            _("the categories of data subjects"),
        ),
        list_or_marker(
            context,
            "dataCategories",
            _("Categories of personal data"),
            _("the categories of personal data"),
        ),
    )


def write_recipients(context: CompositionContext) -> str:
    lines = list_or_marker(
        context,
        "recipients",
        _("Categories of recipients"),
        _("the categories of recipients, or state that there are none"),
    )
    countries = list(dict.fromkeys(t.country for t in context.items("thirdCountryTransfers")))
    if countries:
        lines += _("\n\nRecipients in third countries: ") + ", ".join(map(escape_inline, countries))
    return lines


def write_transfers(context: CompositionContext) -> str:
    return transfers_text(
        context, none_text=_("No transfer to a third country or international organisation.")
    )


def write_security(context: CompositionContext) -> str:
    return list_or_marker(
        context,
        "securityMeasures",
        _("Measures under Art. 32(1)"),
        _("a general description of the technical and organisational measures"),
    )


def write_processor(context: CompositionContext) -> str:
    acts = context.flag("actsAsProcessor")
    if acts is None:
        return marker(_("whether the organisation also processes data on behalf of controllers"))
    if not acts:
        return _("Not applicable: the organisation does not act as a processor for this activity.")
    return join_blocks(
        _("The organisation acts as processor. For each controller:"),
        list_or_marker(
            context,
            "controllersServed",
            _("Controllers (name, contact, representative and DPO)"),
            _("each controller's name and contact details"),
        ),
        list_or_marker(
            context,
            "processingCategoriesPerController",
            _("Categories of processing carried out for each controller"),
            _("the categories of processing"),
        ),
        _(
            "Transfers and security measures: as in Art. 30(1)(e) and (g) above, which apply to"
            " processing on behalf of controllers as well (Art. 30(2)(c)-(d))."
        ),
    )


def write_form(context: CompositionContext) -> str:
    form = context.choice("recordFormat") or _("electronic form")
    owner = context.inline("recordOwner")
    return join_blocks(
        _(
            "This record is kept in writing ({form}) (Art. 30(3)) and is made "
            "available to the supervisory authority on request (Art. 30(4)).",
            form=form,
        ),
        _("Maintained by: {owner}.", owner=owner) if owner else None,
    )


def write_exemption(context: CompositionContext) -> str:
    count = context.value("employeeCount")
    rule = _(
        "Art. 30(5) exempts organisations with fewer than 250 employees unless the processing"
        " is likely to result in a risk to the rights and freedoms of data subjects, is not"
        " occasional, or includes Art. 9(1) or Art. 10 data."
    )
    exceptions = [_(str(option)) for option in context.items("processingCharacteristics")]
    if count is None:
        verdict = _("The record is kept whatever the headcount, as good practice.")
    elif int(count) >= EXEMPTION_THRESHOLD:
        verdict = _(
            "With {count} employees the exemption does not apply.", count=format_number(int(count))
        )
    elif exceptions:
        verdict = (
            _(
                "With {count} employees the exemption would be open, but it is excluded here: ",
                count=format_number(int(count)),
            )
            + ", ".join(map(escape_inline, exceptions)).lower()
            + "."
        )
    else:
        verdict = _(
            "With {count} employees the exemption may apply if the processing is "
            "occasional and low-risk; regular processing (e.g. payroll) is never "
            "occasional, so the record is kept.",
            count=format_number(int(count)),
        )
    return join_blocks(rule, verdict)


WRITERS = {
    "a-controller": write_controller,
    "b-purposes": write_purposes,
    "purpose-basis": write_purpose_bases,
    "c-categories": write_categories,
    "special-categories": write_sensitive_data,
    "d-recipients": write_recipients,
    "e-transfers": write_transfers,
    "f-erasure": write_erasure_limits,
    "g-security": write_security,
    "processor-record": write_processor,
    "written-form": write_form,
    "exemption": write_exemption,
}
