"""Chapter V instruments named precisely: adequacy decisions, SCC modules, transfer impact
assessments.

"SCC" or "adequacy" alone does not tell a reader (or a supervisory authority) what a transfer
rests on. This module names the Commission decision, picks the module of the standard
contractual clauses (Commission Implementing Decision (EU) 2021/914) from the parties' roles,
and says what is missing: the module when the roles are unknown, a country without an
adequacy decision, a US recipient not shown to be certified under the EU-US Data Privacy
Framework, an Art. 46 transfer without its transfer impact assessment (Clause 14 of the SCCs,
EDPB Recommendations 01/2020). Used by every writer through `writers.common.transfers_text`.
"""

from __future__ import annotations

from dataclasses import dataclass

from gdpr.concepts import recognise, scheme
from gdpr.countries import find_country
from gdpr.i18n import N_, _

SCC_DECISION = N_("Commission Implementing Decision (EU) 2021/914")
ART_28_7_DECISION = N_("Commission Implementing Decision (EU) 2021/915")
SCC_MODULES: dict[int, str] = {
    1: N_("Module 1 (controller to controller)"),
    2: N_("Module 2 (controller to processor)"),
    3: N_("Module 3 (processor to processor)"),
    4: N_("Module 4 (processor to controller)"),
}
_MODULE_BY_ROLES = {
    ("controller", "controller"): 1,
    ("controller", "processor"): 2,
    ("processor", "processor"): 3,
    ("processor", "controller"): 4,
}
# Importer roles (inputs.RECIPIENT_ROLES) that decide the purposes themselves.
_CONTROLLER_ROLES = ("controller", "joint-controller", "public-authority")


@dataclass(frozen=True, slots=True)
class Adequacy:
    """An Art. 45(3) decision (or one kept in force by Art. 45(9)) and what it covers.

    `code` is the country's ISO 3166-1 alpha-2 code: the decision is found by it, so the
    country may be named in any language (gdpr.countries). `scope` limits the decision to some
    recipients (Canada, the United States); None when it covers every recipient there.
    """

    code: str
    country: str
    decision: str
    scope: str | None = None


ADEQUACY_DECISIONS: tuple[Adequacy, ...] = (
    Adequacy("AD", N_("Andorra"), N_("Commission Decision 2010/625/EU")),
    Adequacy("AR", N_("Argentina"), N_("Commission Decision 2003/490/EC")),
    Adequacy(
        "CA",
        N_("Canada"),
        N_("Commission Decision 2002/2/EC"),
        N_(
            "commercial organisations subject to the Personal Information Protection and"
            " Electronic Documents Act (PIPEDA)"
        ),
    ),
    Adequacy("FO", N_("Faroe Islands"), N_("Commission Decision 2010/146/EU")),
    Adequacy("GG", N_("Guernsey"), N_("Commission Decision 2003/821/EC")),
    Adequacy("IL", N_("Israel"), N_("Commission Decision 2011/61/EU")),
    Adequacy("IM", N_("Isle of Man"), N_("Commission Decision 2004/411/EC")),
    Adequacy("JP", N_("Japan"), N_("Commission Implementing Decision (EU) 2019/419")),
    Adequacy("JE", N_("Jersey"), N_("Commission Decision 2008/393/EC")),
    Adequacy("NZ", N_("New Zealand"), N_("Commission Implementing Decision 2013/65/EU")),
    Adequacy("KR", N_("Republic of Korea"), N_("Commission Implementing Decision (EU) 2022/254")),
    Adequacy("CH", N_("Switzerland"), N_("Commission Decision 2000/518/EC")),
    Adequacy(
        "GB",
        N_("United Kingdom"),
        N_("Commission Implementing Decision (EU) 2021/1772 (and any decision renewing it)"),
    ),
    Adequacy("UY", N_("Uruguay"), N_("Commission Implementing Decision 2012/484/EU")),
    Adequacy(
        "US",
        N_("United States"),
        N_("Commission Implementing Decision (EU) 2023/1795"),
        N_("recipients certified under the EU-US Data Privacy Framework"),
    ),
)
_BY_CODE = {adequacy.code: adequacy for adequacy in ADEQUACY_DECISIONS}

# What a transfer's wording names, in any language (gdpr/concepts transfer-document.json).
_TRANSFER_DOCUMENTS = "transfer-document"


def _names(code: str, text: str) -> bool:
    return code in recognise(_TRANSFER_DOCUMENTS, text)


def adequacy_decision(country: str) -> Adequacy | None:
    """The adequacy decision covering `country` (a name in any language, an ISO code, an
    address), or None.

    In "City, Country" the last country named wins: "Newark, New Jersey, USA" is the United
    States, not Jersey.
    """
    code = find_country(country)
    return _BY_CODE.get(code) if code else None


def covering_adequacy(country: str) -> Adequacy | None:
    """The adequacy decision that alone covers a transfer to `country`, whoever the
    recipient (Art. 45(1): no other instrument needed), or None. A decision limited to some
    recipients (Canada's PIPEDA organisations, the United States' certified ones) does not:
    the recipient must still be shown to fall under it."""
    adequacy = adequacy_decision(country)
    return adequacy if adequacy is not None and adequacy.scope is None else None


def scc_module_from_roles(exporter_role: str | None, importer_role: str | None) -> int | None:
    """The SCC module (1-4) for these roles, or None when either is unknown."""
    if not exporter_role or not importer_role:
        return None
    importer = "controller" if importer_role in _CONTROLLER_ROLES else importer_role
    exporter = "controller" if exporter_role in _CONTROLLER_ROLES else exporter_role
    return _MODULE_BY_ROLES.get((exporter, importer))


def scc_module_stated(*texts: str | None) -> int | None:
    """A module named in the wording or the documentation ("module 2", "C2P"), or None."""
    documents = scheme(_TRANSFER_DOCUMENTS)
    for text in texts:
        for code in documents.recognise(text or ""):
            concept = documents.concept(code)
            if concept.group == "scc-module":
                return int(concept.attributes["module"])
    return None


def scc_clause(module: int | None) -> str:
    """'the standard contractual clauses of Decision 2021/914, Module N (...)'."""
    named = _(SCC_MODULES[module]) if module else _("module to be determined")
    return _(
        "Standard contractual clauses, {scc_decision}, {named}",
        scc_decision=_(SCC_DECISION),
        named=named,
    )


@dataclass(frozen=True, slots=True)
class Instrument:
    """How a transfer is covered, in words, and the details still missing."""

    text: str
    missing: tuple[str, ...] = ()


def describe_instrument(
    *,
    code: str,
    country: str,
    recipient: str | None,
    wording: str | None,
    details: str | None,
    exporter_role: str | None,
    importer_role: str | None,
) -> Instrument:
    """The precise instrument of one transfer (`code` is a recognition.TRANSFER_SAFEGUARDS)."""
    who = f"{recipient} ({country})" if recipient else country
    stated = " ".join(part for part in (wording, details) if part)
    if code == "adequacy-decision":
        adequacy = adequacy_decision(country)
        if adequacy is None:
            return Instrument(
                _("Adequacy decision (Art. 45): none found"),
                (
                    _(
                        "no adequacy decision covers {country}: name the decision, or another "
                        "Art. 46-49 instrument, for ",
                        country=country,
                    )
                    + who,
                ),
            )
        scope = _(", for {scope}", scope=_(adequacy.scope)) if adequacy.scope else ""
        text = _(
            "Adequacy decision (Art. 45): {decision} ({country}{scope})",
            decision=_(adequacy.decision),
            country=_(adequacy.country),
            scope=scope,
        )
        if adequacy.code == "US" and not _names("data-privacy-framework", stated):
            return Instrument(
                text,
                (
                    _(
                        "confirmation that {who} is certified under the EU-US Data Privacy "
                        "Framework (otherwise another Art. 46 instrument is needed)",
                        who=who,
                    ),
                ),
            )
        return Instrument(text)
    missing: list[str] = []
    if code == "standard-contractual-clauses":
        module = scc_module_stated(wording, details) or scc_module_from_roles(
            exporter_role, importer_role
        )
        text = _("Art. 46(2)(c): ") + scc_clause(module)
        if module is None:
            missing.append(
                _(
                    "the module of the standard contractual clauses (Decision (EU) 2021/914:"
                    " 1 controller to controller, 2 controller to processor, 3 processor to"
                    " processor, 4 processor to controller) for "
                )
                + who
            )
    elif code == "binding-corporate-rules":
        text = _("Binding corporate rules approved under Art. 47 (Art. 46(2)(b))")
    elif code == "code-or-certification":
        text = _(
            "Approved code of conduct or certification with binding and enforceable"
            " commitments of the importer (Art. 46(2)(e)-(f))"
        )
    elif code == "art-49-compelling-legitimate-interests":
        return Instrument(
            _(
                "Art. 49(1) second subparagraph: compelling legitimate interests, the supervisory"
                " authority and the data subject informed"
            )
        )
    elif code == "art-49-derogation":
        return Instrument(_("Derogation for a specific situation (Art. 49(1))"))
    else:
        return Instrument(_("None"))
    if not _names("transfer-impact-assessment", stated):
        missing.append(
            _(
                "the transfer impact assessment (Clause 14 of the SCCs, EDPB Recommendations"
                " 01/2020: the laws and practices of the third country) for "
            )
            + who
        )
    return Instrument(text, tuple(missing))
