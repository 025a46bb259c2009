"""The concepts the rules reason with, recognised in any language: see `vocabulary`."""

from gdpr.concepts.vocabulary import (
    Concept,
    Scheme,
    codes,
    fold,
    recognise,
    recognise_all,
    scheme,
    scheme_names,
)

__all__ = [
    "Concept",
    "Scheme",
    "codes",
    "fold",
    "recognise",
    "recognise_all",
    "scheme",
    "scheme_names",
]
