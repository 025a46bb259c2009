"""The OpenAPI description of the create body: one alternative per document type.

The create endpoint validates with the type's own input serializer (serializers.py), so the
schema is built from the same declarations: oneOf the six types, discriminated by
`documentType`, each with a realistic example (doctypes/examples.py). Fields that take a
plain text or an object show both forms (common/structured.py).
"""

from __future__ import annotations

from functools import cache

from drf_spectacular.utils import OpenApiExample, PolymorphicProxySerializer
from rest_framework import serializers

from gdpr.doctypes.examples import EXAMPLES
from gdpr.i18n import COMPLETE_LANGUAGES, DEFAULT_LANGUAGE
from legal_documents.inputs.registry import DOCUMENT_TYPES


def _body_serializer(name: str) -> type[serializers.Serializer]:
    spec = DOCUMENT_TYPES[name]
    component = "".join(part.capitalize() for part in name.split("_")) + "CreateBody"
    return type(
        component,
        (spec.input_serializer,),
        {
            "documentType": serializers.ChoiceField(choices=[name]),
            "language": serializers.ChoiceField(
                choices=list(COMPLETE_LANGUAGES),
                required=False,
                default=DEFAULT_LANGUAGE,
                help_text=(
                    "The language the whole document is written in (headings, checklist"
                    " texts, assessments, questionnaire, dates). Only languages whose"
                    " translations are complete are accepted; default en."
                ),
            ),
            "__doc__": f"Create body of a {spec.title} ({name}).",
        },
    )


@cache
def create_body() -> PolymorphicProxySerializer:
    """The request schema of POST /api/v1/legal-documents."""
    return PolymorphicProxySerializer(
        component_name="CreateDocumentBody",
        serializers={name: _body_serializer(name) for name in sorted(DOCUMENT_TYPES)},
        resource_type_field_name="documentType",
    )


def create_examples() -> list[OpenApiExample]:
    """One example request body per document type."""
    return [
        OpenApiExample(
            DOCUMENT_TYPES[name].title,
            value={"documentType": name, **EXAMPLES[name]},
            request_only=True,
        )
        for name in sorted(EXAMPLES)
    ]
