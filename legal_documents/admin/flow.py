"""The DPO's flow in the admin: create a document, answer, draft, finalize, iterate.

Every step calls the service the API calls (generation limits, locking, audit and webhooks
apply alike); this mixin only turns forms into service calls and errors into messages.
Auditors and members without the change permission see the panels but no forms, and a
crafted POST is refused with 403 and recorded as a denied audit event.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from audit.models import Outcome
from audit.services import record_event
from common.admin_errors import admin_message, report_domain_error
from common.domain import DomainError, InvalidInput
from legal_documents.admin.forms import (
    DocumentInputForm,
    FinalizeQuestionsForm,
    IterateForm,
    QuestionnaireForm,
)
from legal_documents.inputs.registry import DOCUMENT_TYPES, get_document_type
from legal_documents.models import LegalDocument, Status
from legal_documents.questionnaire import (
    answer_values,
    progress,
    questionnaire_answer,
    validate_answers,
)
from legal_documents.selectors import document_completeness
from legal_documents.serializers import CreateDocumentSerializer
from legal_documents.services import flow
from legal_documents.services.documents import legal_document_create
from legal_documents.services.refresh import legal_document_refresh
from organizations.admin_scoping import admin_actor, admin_membership, is_auditor

STATUS_POLL_MILLISECONDS = 1500
RECENT_ITERATIONS = 10
FLOW_STEPS = ("answers", "draft", "finalize", "iterate", "refresh")


def _change_url(document: LegalDocument) -> str:
    return reverse("admin:legal_documents_legaldocument_change", args=[document.pk])


def status_payload(document: LegalDocument) -> dict[str, Any]:
    """What the change page's poll shows (no content: the page reloads for that)."""
    return {
        "status": document.status,
        "stage": document.stage,
        # In the admin user's language (the codes above drive the page's logic).
        "statusLabel": document.get_status_display(),
        "stageLabel": document.get_stage_display(),
        "version": document.version,
        "errorCode": document.error_code or None,
        "errorMessage": document.error_message or None,
        "updatedAt": document.updated_at.isoformat(),
    }


class DocumentFlowAdminMixin:
    """Mixed into LegalDocumentAdmin (a ModelAdmin scoped by OrganizationScopedAdmin)."""

    admin_site: Any
    model: type[LegalDocument]
    get_queryset: Any
    get_object: Any
    has_view_permission: Any
    change_view: Any

    # -- who may do what ---------------------------------------------------------------------
    def can_operate(self, request: HttpRequest) -> bool:
        """Members (not auditors) with the change permission run the flow."""
        return (
            admin_membership(request) is not None
            and not is_auditor(request)
            and request.user.has_perm("legal_documents.change_legaldocument")
        )

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        # Creating needs a membership: the document belongs to the member's organization.
        return (
            admin_membership(request) is not None
            and not is_auditor(request)
            and request.user.has_perm("legal_documents.add_legaldocument")
        )

    def _refuse(self, request: HttpRequest, document: LegalDocument | None, action: str) -> None:
        record_event(
            organization=document.organization if document else None,
            actor=admin_actor(request),
            action=f"document.{action}",
            outcome=Outcome.DENIED,
            object_type="document",
            object_id=document.pk if document else "",
            details={"via": "admin"},
        )
        raise PermissionDenied(gettext("Your role may not change documents."))

    def _scoped(self, request: HttpRequest, object_id: str) -> LegalDocument:
        document = self.get_queryset(request).filter(pk=object_id).first()
        if document is None:
            raise Http404(gettext("No such document in your organization."))
        return document

    # -- urls ----------------------------------------------------------------------------------
    def flow_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        name = "legal_documents_legaldocument_"
        return [
            path("<uuid:object_id>/status/", wrap(self.status_view), name=f"{name}status"),
            path(
                "<uuid:object_id>/flow/<str:step>/",
                wrap(require_POST(self.flow_view)),
                name=f"{name}flow",
            ),
        ]

    # -- create ----------------------------------------------------------------------------------
    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict | None = None
    ) -> HttpResponse:
        """Choose a type, then fill the form generated from its input serializer."""
        if not self.has_add_permission(request):
            if request.method == "POST":
                self._refuse(request, None, "create")
            raise PermissionDenied
        membership = admin_membership(request)
        assert membership is not None  # has_add_permission checked it
        type_name = request.POST.get("documentType") or request.GET.get("type")
        context = {**self.admin_site.each_context(request), "opts": self.model._meta}
        if type_name not in DOCUMENT_TYPES:
            types = [(name, spec.title, spec.description) for name, spec in DOCUMENT_TYPES.items()]
            return TemplateResponse(
                request,
                "admin/legal_documents/legaldocument/choose_type.html",
                {
                    **context,
                    "title": gettext("Add legal document: choose its type"),
                    "types": types,
                },
            )
        spec = get_document_type(type_name)
        form = DocumentInputForm(
            request.POST if request.method == "POST" else None,
            spec=spec,
            organization=membership.organization,
        )
        if request.method == "POST" and form.is_valid():
            document = self._create(request, form)
            if document is not None:
                messages.success(
                    request,
                    gettext("%(title)s created; it is being generated.") % {"title": spec.title},
                )
                return HttpResponseRedirect(_change_url(document))
        return TemplateResponse(
            request,
            "admin/legal_documents/legaldocument/add_document.html",
            {
                **context,
                "title": gettext("Add %(title)s") % {"title": spec.title},
                "spec": spec,
                "form": form,
            },
        )

    def _create(self, request: HttpRequest, form: DocumentInputForm) -> LegalDocument | None:
        body = CreateDocumentSerializer(data={"documentType": form.spec.name, **form.input_data()})
        if not body.is_valid():
            form.add_api_errors(body.errors)
            return None
        membership = admin_membership(request)
        try:
            return legal_document_create(
                membership=membership,  # type: ignore[arg-type]
                document_type=form.spec.name,
                inputs=body.validated_data["inputs"],
                actor=admin_actor(request),
            )
        except DomainError as error:
            form.add_error(None, admin_message(error))
            if error.details:
                form.add_api_errors(error.details)
            return None

    # -- the change page -------------------------------------------------------------------------
    def flow_context(
        self, request: HttpRequest, document: LegalDocument, questionnaire: QuestionnaireForm | None
    ) -> dict[str, Any]:
        """The panels above the document's fields."""
        spec = get_document_type(document.document_type)
        answers = answer_values(document)
        report = document_completeness(document) if document.has_content else None
        titles = {item.id: item.title for item in spec.checklist}
        iterations = document.iterations.order_by("-created_at")[:RECENT_ITERATIONS]
        return {
            "document": document,
            "spec": spec,
            "can_operate": self.can_operate(request),
            "questionnaire": questionnaire or QuestionnaireForm(spec=spec, answers=answers),
            "progress": progress(spec, answers),
            "report": report,
            "report_items": [(item, titles[item.id]) for item in report.items] if report else [],
            "iterate_form": IterateForm(),
            "finalize_form": FinalizeQuestionsForm(stored=document.finalize_questions or []),
            "iterations": list(iterations),
            "status_url": reverse("admin:legal_documents_legaldocument_status", args=[document.pk]),
            "poll_milliseconds": STATUS_POLL_MILLISECONDS,
            "is_processing": document.status == Status.PROCESSING,
            "from_register": bool(document.register_sources),
            "flow_urls": {
                step: reverse("admin:legal_documents_legaldocument_flow", args=[document.pk, step])
                for step in FLOW_STEPS
            },
            "audit_url": reverse("admin:audit_auditevent_changelist")
            + f"?object_type=document&object_id={document.pk}",
        }

    # -- status poll -------------------------------------------------------------------------------
    def status_view(self, request: HttpRequest, object_id: str) -> JsonResponse:
        """The document's status as JSON, polled by the change page while it is processing."""
        document = self._scoped(request, object_id)
        if not self.has_view_permission(request, document):
            raise PermissionDenied
        return JsonResponse(status_payload(document))

    # -- steps -------------------------------------------------------------------------------------
    def flow_view(self, request: HttpRequest, object_id: str, step: str) -> HttpResponse:
        """POST answers / draft / finalize / iterate; back to the change page with a message."""
        document = self._scoped(request, object_id)
        if not self.can_operate(request):
            self._refuse(request, document, step)
        handlers = {
            "answers": self._answers,
            "draft": self._draft,
            "finalize": self._finalize,
            "iterate": self._iterate,
            "refresh": self._refresh,
        }
        handler = handlers.get(step)
        if handler is None:
            raise Http404(gettext("Unknown step %(step)r.") % {"step": step})
        try:
            return handler(request, document)
        except DomainError as error:
            report_domain_error(request, error, with_code=True)
            return HttpResponseRedirect(_change_url(document))

    def _answers(self, request: HttpRequest, document: LegalDocument) -> HttpResponse:
        spec = get_document_type(document.document_type)
        form = QuestionnaireForm(request.POST, spec=spec, answers=answer_values(document))
        if form.is_valid():
            pairs = form.answer_pairs()
            try:
                if "_finalize" in request.POST:
                    validated = validate_answers(spec, pairs)
                    flow.document_finalize(
                        document=document, finalize_answers=validated, actor=admin_actor(request)
                    )
                    messages.success(
                        request, gettext("Answers saved; the final document is generated.")
                    )
                    return HttpResponseRedirect(_change_url(document))
                if pairs:
                    questionnaire_answer(document=document, pairs=pairs, actor=admin_actor(request))
                messages.success(
                    request,
                    ngettext("%(count)d answer saved.", "%(count)d answers saved.", len(pairs))
                    % {"count": len(pairs)},
                )
                return HttpResponseRedirect(_change_url(document))
            except InvalidInput as error:
                if error.code != "VALIDATION_ERROR" or not error.details:
                    raise
                form.add_api_errors(error.details)
        messages.error(request, gettext("Some answers are not valid; see the questionnaire."))
        # Shown again with its errors: rendered as a page view, never as a save of the model.
        request.method = "GET"
        return self.change_view(request, str(document.pk), extra_context={"questionnaire": form})

    def _draft(self, request: HttpRequest, document: LegalDocument) -> HttpResponse:
        flow.document_draft(document=document, actor=admin_actor(request))
        messages.success(request, gettext("The draft is regenerated with the answers."))
        return HttpResponseRedirect(_change_url(document))

    def _finalize(self, request: HttpRequest, document: LegalDocument) -> HttpResponse:
        form = FinalizeQuestionsForm(request.POST, stored=document.finalize_questions or [])
        if not form.is_valid():
            problems = "; ".join(str(error) for errors in form.errors.values() for error in errors)
            messages.error(
                request,
                gettext("The final document was not generated: %(problems)s")
                % {"problems": problems},
            )
            return HttpResponseRedirect(_change_url(document))
        flow.document_finalize(
            document=document,
            finalize_answers={},
            # A post without the rows (a crafted or older page) keeps the stored questions.
            finalize_questions=form.pairs() if form.has_rows_posted() else None,
            actor=admin_actor(request),
        )
        messages.success(
            request, gettext("The final document is generated with the stored answers.")
        )
        return HttpResponseRedirect(_change_url(document))

    def _refresh(self, request: HttpRequest, document: LegalDocument) -> HttpResponse:
        result = legal_document_refresh(
            document_id=document.pk,
            organization_id=document.organization_id,
            actor=admin_actor(request),
        )
        if result.new_version:
            changed = "; ".join(result.changed_entries) or gettext("no entry")
            messages.success(
                request,
                gettext("Refreshed from the register (version %(version)s): %(changed)s.")
                % {"version": result.document.version, "changed": changed},
            )
        else:
            messages.success(
                request, gettext("Refreshed: the register change left the text unchanged.")
            )
        return HttpResponseRedirect(_change_url(document))

    def _iterate(self, request: HttpRequest, document: LegalDocument) -> HttpResponse:
        form = IterateForm(request.POST)
        if not form.is_valid():
            messages.error(request, gettext("Write an instruction of at most 10,000 characters."))
            return HttpResponseRedirect(_change_url(document))
        flow.document_iterate(
            document=document, message=form.cleaned_data["message"], actor=admin_actor(request)
        )
        messages.success(request, gettext("The instruction is being applied."))
        return HttpResponseRedirect(_change_url(document))
