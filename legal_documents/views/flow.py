"""The guided flow endpoints: questionnaire, draft, finalize (`generate`) and iterate.

Detail actions only (no list or retrieve), registered on the `legal-documents` prefix next
to the main viewset. Scoping, roles (auditors cannot write), throttling and the audit of
foreign lookups come from OrganizationScopedViewSet; services audit what they change.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from common.errors import ApiError
from common.fields import BoundedTextField
from gdpr.doctypes.registry import get_document_type
from legal_documents.models import LegalDocument
from legal_documents.questionnaire import questionnaire_answer, questionnaire_for, validate_answers
from legal_documents.serializers import DocumentSerializer, RefreshedDocumentSerializer
from legal_documents.services import flow
from legal_documents.services.refresh import legal_document_refresh
from organizations.access import request_actor
from organizations.viewsets import OrganizationScopedViewSet

MAX_MESSAGE_LENGTH = 10_000
# Questions asked at the end are a handful; the bound keeps one request's text reasonable.
MAX_FINALIZE_QUESTIONS = 50


# --- request and response shapes (camelCase, docs/API.md) ---------------------------------------
class QuestionSerializer(serializers.Serializer):
    id = serializers.CharField()
    text = serializers.CharField()
    help = serializers.CharField()
    article = serializers.CharField()
    required = serializers.BooleanField()
    answerType = serializers.ChoiceField(  # noqa: N815
        choices=["text", "choice", "multiChoice", "boolean", "date"]
    )
    options = serializers.ListField(child=serializers.CharField())
    answer = serializers.JSONField(allow_null=True)


class QuestionnaireSerializer(serializers.Serializer):
    questions = QuestionSerializer(many=True)
    answered = serializers.IntegerField()
    total = serializers.IntegerField()


class AnswerSerializer(serializers.Serializer):
    """One answer; `answer: null` clears it. The type must match the question's."""

    questionId = serializers.CharField(max_length=100)  # noqa: N815
    answer = serializers.JSONField(allow_null=True)


class AnswersBodySerializer(serializers.Serializer):
    """Either one answer (`{questionId, answer}`) or several (`{answers: [...]}`)."""

    questionId = serializers.CharField(max_length=100, required=False)  # noqa: N815
    answer = serializers.JSONField(allow_null=True, required=False)
    answers = AnswerSerializer(many=True, required=False, allow_empty=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "answers" in attrs:
            return attrs
        if "questionId" not in attrs:
            raise serializers.ValidationError({"questionId": ["This field is required."]})
        return attrs


class StoredAnswerSerializer(serializers.Serializer):
    questionId = serializers.CharField()  # noqa: N815
    answer = serializers.JSONField(allow_null=True)
    answeredAt = serializers.DateTimeField(allow_null=True)  # noqa: N815
    answered = serializers.IntegerField()
    total = serializers.IntegerField()


class FreeTextField(BoundedTextField):
    """A bounded text that must be a JSON string (DRF would turn 3 into "3")."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            raise serializers.ValidationError("Must be a string.")
        return super().to_internal_value(data)


class FinalizeItemSerializer(serializers.Serializer):
    """`{question, answer}` (free text, SEED.md) or `{questionId, answer}` (questionnaire).

    With `questionId` the answer is validated against that question (any JSON type the
    question takes); without it, `question` and `answer` are non-blank strings of at most
    100,000 characters (CONTENT_TOO_LONG beyond).
    """

    questionId = serializers.CharField(max_length=100, required=False)  # noqa: N815
    question = FreeTextField(required=False, help_text="The question, in free text.")
    answer = serializers.JSONField(
        allow_null=True,
        help_text="A string for a free-text question; with questionId, the question's type.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "questionId" in attrs:
            return attrs
        if "question" not in attrs:
            raise serializers.ValidationError(
                {"question": ["This field is required (or give questionId)."]}
            )
        try:
            attrs["answer"] = FreeTextField().run_validation(attrs["answer"])
        except serializers.ValidationError as error:
            raise serializers.ValidationError({"answer": error.detail}) from None
        return attrs


class FinalizeItemsField(serializers.ListField):
    """The list of items; the older `{questionId: answer}` object is still accepted."""

    def to_internal_value(self, data: Any) -> list[dict[str, Any]]:
        if isinstance(data, dict):
            data = [{"questionId": key, "answer": value} for key, value in data.items()]
        return super().to_internal_value(data)


class FinalizeBodySerializer(serializers.Serializer):
    """`questionsToFinalize` (optional): free-text `{question, answer}` items and/or
    questionnaire `{questionId, answer}` items."""

    questionsToFinalize = FinalizeItemsField(  # noqa: N815
        child=FinalizeItemSerializer(), required=False, max_length=MAX_FINALIZE_QUESTIONS
    )

    def free_text_pairs(self) -> list[dict[str, str]] | None:
        """The `{question, answer}` items; None when `questionsToFinalize` was not sent."""
        if "questionsToFinalize" not in self.validated_data:
            return None
        return [
            {"question": item["question"], "answer": item["answer"]}
            for item in self.validated_data["questionsToFinalize"]
            if "questionId" not in item
        ]

    def questionnaire_pairs(self) -> list[tuple[str, Any]]:
        """(questionId, answer) of the items that name a questionnaire question."""
        return [
            (item["questionId"], item["answer"])
            for item in self.validated_data.get("questionsToFinalize", [])
            if "questionId" in item
        ]


class IterateBodySerializer(serializers.Serializer):
    message = serializers.CharField(max_length=MAX_MESSAGE_LENGTH, allow_blank=False)


class IterationStartedSerializer(serializers.Serializer):
    threadId = serializers.UUIDField(help_text="The document id, as in every WebSocket event.")  # noqa: N815
    messageId = serializers.UUIDField()  # noqa: N815
    status = serializers.CharField()
    iterationId = serializers.UUIDField(help_text="The iteration (also in its events).")  # noqa: N815


# --- the viewset ---------------------------------------------------------------------------
@extend_schema(tags=["legal documents"])
class LegalDocumentFlowViewSet(OrganizationScopedViewSet):
    queryset = LegalDocument.objects.select_related("organization")
    serializer_class = DocumentSerializer
    audit_object_type = "document"

    @extend_schema(responses=QuestionnaireSerializer, description="Questions and answers.")
    @action(detail=True, methods=["get"])
    def questionnaire(self, request: Request, pk: str) -> Response:
        document = self.get_object()
        self.audit(action="read", obj=document, details={"view": "questionnaire"})
        return Response(questionnaire_for(document))

    @extend_schema(
        request=AnswersBodySerializer,
        responses=StoredAnswerSerializer,
        description="Store one answer (or several with `answers`); 400 for an unknown "
        "question or an answer of the wrong type.",
    )
    @action(detail=True, methods=["post"], url_path="questionnaire/answers")
    def answers(self, request: Request, pk: str) -> Response:
        document = self.get_object()
        body = AnswersBodySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if "answers" in data:
            pairs = [(item["questionId"], item["answer"]) for item in data["answers"]]
            duplicates = {key for key, _ in pairs if [k for k, _ in pairs].count(key) > 1}
            if duplicates:
                raise ApiError(
                    "VALIDATION_ERROR",
                    "The request is not valid.",
                    details={"answers": {key: ["Answered twice."] for key in sorted(duplicates)}},
                )
            entries, progress = questionnaire_answer(
                document=document, pairs=pairs, actor=request_actor(request), field="answers"
            )
            return Response({"answers": entries, **progress.as_dict()})
        entries, progress = questionnaire_answer(
            document=document,
            pairs=[(data["questionId"], data.get("answer"))],
            actor=request_actor(request),
        )
        return Response({**entries[0], **progress.as_dict()})

    @extend_schema(request=None, responses={202: DocumentSerializer})
    @action(detail=True, methods=["post"])
    def draft(self, request: Request, pk: str) -> Response:
        document = flow.document_draft(document=self.get_object(), actor=request_actor(request))
        return Response(DocumentSerializer(document).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(request=FinalizeBodySerializer, responses={202: DocumentSerializer})
    @action(detail=True, methods=["post"])
    def generate(self, request: Request, pk: str) -> Response:
        document = self.get_object()
        body = FinalizeBodySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        answers = validate_answers(
            get_document_type(document.document_type),
            body.questionnaire_pairs(),
            field="questionsToFinalize",
        )
        document = flow.document_finalize(
            document=document,
            finalize_answers=answers,
            finalize_questions=body.free_text_pairs(),
            actor=request_actor(request),
        )
        return Response(DocumentSerializer(document).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(request=IterateBodySerializer, responses={202: IterationStartedSerializer})
    @action(detail=True, methods=["post"])
    def iterate(self, request: Request, pk: str) -> Response:
        document = self.get_object()
        body = IterateBodySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        iteration = flow.document_iterate(
            document=document,
            message=body.validated_data["message"],
            actor=request_actor(request),
        )
        payload = {
            "threadId": str(document.pk),
            "messageId": str(iteration.message_id),
            "status": iteration.status,
            "iterationId": str(iteration.pk),
        }
        return Response(payload, status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        request=None,
        responses={200: RefreshedDocumentSerializer},
        description=(
            "Write the next version from the CURRENT register (documents created from"
            " `processingActivityIds` / `vendorId`, or the whole-register record). Synchronous:"
            " the rules compose the text, no job is queued. Sections whose composed text the"
            " register change did not touch keep their current content, manual edits included;"
            " the others take the new text (docs/REGISTER.md, Refresh from the register)."
            " Clears `stale`."
            " 409 CONFLICT for a document written from its body alone, while processing, or"
            " when an entry it names was deleted from the register."
        ),
    )
    @action(detail=True, methods=["post"])
    def refresh(self, request: Request, pk: str) -> Response:
        document = self.get_object()
        result = legal_document_refresh(
            document_id=document.pk,
            organization_id=document.organization_id,
            actor=request_actor(request),
        )
        summary = {
            "changedEntries": result.changed_entries,
            "rewrittenSections": result.rewritten_sections,
            "newVersion": result.new_version,
        }
        return Response({**DocumentSerializer(result.document).data, "refresh": summary})
