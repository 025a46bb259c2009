"""The default provider: offline and deterministic, writing from the inputs and the rules."""

from __future__ import annotations

from legal_documents.providers.base import ChunkCallback, EditResult, WritingRequest


class TemplateProvider:
    name = "template"

    def write_document(self, request: WritingRequest, on_chunk: ChunkCallback | None = None) -> str:
        return request.template_markdown()

    def edit_document(
        self,
        markdown: str,
        message: str,
        request: WritingRequest,
        on_chunk: ChunkCallback | None = None,
    ) -> EditResult:
        from legal_documents.providers.editing import apply_edit_instruction

        company_name = request.inputs.get("companyName")
        return apply_edit_instruction(
            markdown, message, company_name=company_name if isinstance(company_name, str) else None
        )
