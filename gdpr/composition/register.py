"""The record of processing of a whole register: one section per processing activity.

An organization's Art. 30 record is one register of all its activities. The inputs are the
organization-level facts of a RECORD_OF_PROCESSING create body (controller, DPO,
representative, headcount) plus `registerActivities`: one create-body-shaped mapping per
activity (`processingActivity`, `purposes`, `legalBasis`, `dataSubjects`, ... and
`actsAsProcessor` with `controllersServed` for an activity carried out as processor).

Layout (the checklist anchors are kept, so completeness reads the text as for any document):
1. the controller (Art. 30(1)(a)) and an overview table of every activity (Art. 30(1)(a)-(g));
2. one section per activity, carrying the anchors of items (b)-(g) each time: an item is
   present only when it is filled in EVERY activity (`every_occurrence` in completeness);
3. the processor's record (Art. 30(2)): the activities carried out on behalf of controllers;
4. form, availability and exemption (Art. 30(3)-(5)).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Unpack

from gdpr.composition.context import CompositionContext, CompositionOptions
from gdpr.composition.markdown import escape_inline, item_heading, join_blocks, table
from gdpr.composition.skeleton import (
    _annex,
    _front_matter,
    build_context,
    item_draft,
    section_skeleton,
)
from gdpr.composition.writers.record_of_processing import write_processor
from gdpr.i18n import N_, _, mid_sentence, punct

if TYPE_CHECKING:
    from gdpr.doctypes.base import DocumentType

# The input key holding one mapping per activity (its presence selects this layout).
REGISTER_ACTIVITIES = "registerActivities"
CONTROLLER_ITEM = "a-controller"
PROCESSOR_ITEM = "processor-record"
# Translated where shown; the XLSX export recognises it in every language.
ACTIVITY_SECTION_PREFIX = N_("Processing activity: ")
OVERVIEW_HEADERS = (
    N_("Processing activity"),
    N_("Purposes (b)"),
    N_("Legal basis"),
    N_("Data subjects (c)"),
    N_("Personal data (c)"),
    N_("Recipients (d)"),
    N_("Third countries (e)"),
    N_("Erasure (f)"),
    N_("Security measures (g)"),
)
NONE = "—"


def is_register_inputs(inputs: Mapping[str, Any]) -> bool:
    """True when the inputs describe several activities (`registerActivities`)."""
    return isinstance(inputs.get(REGISTER_ACTIVITIES), list)


def _org_inputs(inputs: Mapping[str, Any]) -> dict[str, Any]:
    organization = {key: value for key, value in inputs.items() if key != REGISTER_ACTIVITIES}
    joint: list[Any] = list(organization.get("jointControllers") or [])
    for activity in inputs.get(REGISTER_ACTIVITIES) or []:
        for name in activity.get("jointControllers") or []:
            if name not in joint and activity.get("actsAsProcessor") is not True:
                joint.append(name)
    if joint:
        organization["jointControllers"] = joint
    return organization


def activity_name(activity: Mapping[str, Any], position: int) -> str:
    described = activity.get("processingActivity")
    if isinstance(described, Mapping) and described.get("name"):
        return str(described["name"])
    if isinstance(described, str) and described.strip():
        return described.strip()
    return _("Activity {position}", position=position)


def _cell(values: Sequence[Any]) -> str:
    texts = [" ".join(str(value).split()) for value in values if str(value).strip()]
    return f"{punct(';')} ".join(dict.fromkeys(texts)) or NONE


def _overview_row(name: str, context: CompositionContext) -> list[str]:
    countries = [transfer.country for transfer in context.items("thirdCountryTransfers")]
    return [
        name,
        _cell(context.items("purposes")),
        _cell(context.items("legalBasis")),
        _cell(context.items("dataSubjects")),
        _cell(context.items("dataCategories")),
        _cell(context.items("recipients")),
        _cell(countries),
        _cell(context.items("retentionPeriods")),
        _cell(context.items("securityMeasures")),
    ]


def compose_register(
    *,
    document_type: DocumentType,
    inputs: Mapping[str, Any],
    **options: Unpack[CompositionOptions],
) -> str:
    """The whole register as Markdown (deterministic for the same arguments)."""
    organization_inputs = _org_inputs(inputs)

    def context_of(values: Mapping[str, Any]) -> CompositionContext:
        return build_context(document_type=document_type, inputs=values, **options)

    organization = context_of(organization_inputs)
    shared = {
        key: value
        for key, value in organization_inputs.items()
        if key in {"companyName", "companyDetails", "dpoContact", "representative"}
    }
    activities = [
        (activity_name(activity, position), context_of({**shared, **activity}))
        for position, activity in enumerate(inputs.get(REGISTER_ACTIVITIES) or [], start=1)
    ]
    per_activity = [
        item.id
        for item in document_type.items_of("controller-record")
        if item.id != CONTROLLER_ITEM
    ]
    sections: list[str] = []
    number = 1
    overview = table(
        [_(header) for header in OVERVIEW_HEADERS],
        [_overview_row(name, context) for name, context in activities],
    )
    sections.append(
        join_blocks(
            _("## {number}. Record of the controller (Art. 30(1))", number=number),
            item_draft(document_type, CONTROLLER_ITEM, organization).markdown,
            _("### Overview of the processing activities (Art. 30(1)(a)-(g))"),
            _(
                "The register holds one processing activity; it is described in its own"
                " section below."
            )
            if len(activities) == 1
            else _(
                "The register holds {count} processing activities; each is described in its"
                " own section below.",
                count=len(activities),
            ),
            overview,
        )
    )
    article = mid_sentence(_("Art. 30(1)"))
    for name, context in activities:
        number += 1
        sections.append(
            join_blocks(
                f"## {number}. {_(ACTIVITY_SECTION_PREFIX)}{escape_inline(name)} ({article})",
                *(item_draft(document_type, item_id, context).markdown for item_id in per_activity),
            )
        )
    number += 1
    processor_item = next(item for item in document_type.checklist if item.id == PROCESSOR_ITEM)
    acting = [(name, context) for name, context in activities if context.flag("actsAsProcessor")]
    if acting:
        processor_body = join_blocks(
            *(
                join_blocks(f"#### {escape_inline(name)}", write_processor(context))
                for name, context in acting
            )
        )
    else:
        processor_body = _(
            "Not applicable: the organisation acts as processor for none of the activities"
            " of the register."
        )
    sections.append(
        join_blocks(
            _("## {number}. Record of the processor (Art. 30(2))", number=number),
            item_heading(
                _(processor_item.title),
                mid_sentence(_(processor_item.article)),
                processor_item.id,
            ),
            processor_body,
        )
    )
    number += 1
    keeping = section_skeleton(document_type, "keeping", organization)
    sections.append(
        join_blocks(
            f"## {number}. {keeping.title} ({mid_sentence(keeping.article)})",
            keeping.intro,
            *(item.markdown for item in keeping.items),
        )
    )
    return (
        join_blocks(
            _front_matter(document_type, organization), *sections, _annex(organization.sources)
        )
        + "\n"
    )
