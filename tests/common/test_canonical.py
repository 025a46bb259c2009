"""Canonical JSON: the layouts that stored hashes depend on never change."""

from __future__ import annotations

from datetime import UTC, datetime

from common.canonical import canonical_json, canonical_sha256

VALUE = {"b": "Müller", "a": 1, "c": None}


def test_signatures_hash_compact_utf8():
    assert canonical_json(VALUE) == '{"a":1,"b":"Müller","c":null}'.encode()


def test_audit_events_hash_compact_with_non_ascii_escaped():
    assert canonical_json(VALUE, ascii_only=True) == b'{"a":1,"b":"M\\u00fcller","c":null}'


def test_document_versions_hash_the_spaced_layout_with_non_ascii_escaped():
    assert (
        canonical_json(VALUE, compact=False, ascii_only=True)
        == b'{"a": 1, "b": "M\\u00fcller", "c": null}'
    )


def test_key_order_and_unrepresentable_values_do_not_change_the_hash():
    at = datetime(2026, 11, 23, tzinfo=UTC)
    assert canonical_sha256({"x": at, "y": 2}) == canonical_sha256({"y": 2, "x": str(at)})
