"""One registration per format: detection, extraction, conversion and the converted file's
name all come from it, and nothing else in the project declares a format."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator
from pathlib import Path

import pytest

import assets.ingestion
from assets.processing.isolation import exit_failure
from formats import (
    Conversion,
    ConversionFailed,
    ExtractionFailed,
    FileKind,
    InvalidFileType,
    Segment,
    all_formats,
    conversion_target,
    detect_file_type,
    extract_segments,
    format_of,
)
from formats import registry as registry_module
from formats.limits import ReadLimits
from formats.registry import format_by_extension
from tests.assets.samples import all_format_samples


def test_every_kind_is_registered_exactly_once_with_a_reader_and_its_conversion():
    registered = [declared.kind for declared in all_formats()]

    assert sorted(registered) == sorted(FileKind)
    for declared in all_formats():
        assert callable(declared.read)
        assert declared.media_type in declared.accepted_media_types
        assert declared.extensions, declared.kind
        assert declared.conversion is None or (
            declared.conversion.target and callable(declared.conversion.write)
        )
    assert {kind: conversion_target(kind) for kind in FileKind if conversion_target(kind)} == {
        FileKind.XLSX: "csv",
        FileKind.HTML: "txt",
    }


def test_no_two_formats_claim_the_same_extension():
    extensions = [ext for declared in all_formats() for ext in declared.extensions]

    assert len(extensions) == len(set(extensions))


def test_the_asset_pipeline_keeps_no_table_of_conversions_of_its_own():
    assert not hasattr(assets.ingestion, "CONVERSIONS")


@pytest.mark.parametrize("name", sorted(all_format_samples()))
def test_every_accepted_media_type_of_a_format_is_accepted_for_its_sample(name, tmp_path):
    content, phrase = all_format_samples()[name]
    path = tmp_path / name
    path.write_bytes(content)
    kind = detect_file_type(path, declared_name=name, declared_content_type=None)
    declared = format_of(kind)

    for media_type in sorted(declared.accepted_media_types):
        assert detect_file_type(path, declared_name=name, declared_content_type=media_type) is kind
    assert phrase in "".join(segment.text for segment in extract_segments(path, kind))


CONVERTED_SAMPLES = sorted(
    name
    for name in all_format_samples()
    if (declared := format_by_extension(Path(name).suffix)) and declared.conversion
)


@pytest.mark.parametrize("name", CONVERTED_SAMPLES)
def test_a_converted_format_writes_its_converted_file_from_the_segments_it_reads(name, tmp_path):
    content, phrase = all_format_samples()[name]
    path = tmp_path / name
    path.write_bytes(content)
    kind = detect_file_type(path, declared_name=name, declared_content_type=None)
    conversion = format_of(kind).conversion
    assert conversion is not None
    output = io.StringIO()

    passed = list(conversion.write(extract_segments(path, kind), output))

    assert phrase in output.getvalue()
    assert phrase in "".join(segment.text for segment in passed)


def test_a_limit_failure_of_a_converted_format_says_its_conversion():
    failure = exit_failure(-9, kind=FileKind.XLSX, limits=_limits())

    assert isinstance(failure, ConversionFailed)
    assert failure.details == {"originalFormat": "xlsx", "targetFormat": "csv"}
    assert type(exit_failure(-9, kind=FileKind.PDF, limits=_limits())) is ExtractionFailed


def test_a_new_format_needs_one_registration_only(monkeypatch, tmp_path):
    """A format registered under new extensions, with its own reader and conversion, is
    detected, read and converted without a change anywhere else."""

    def read_log(path: Path, limits: ReadLimits) -> Iterator[Segment]:
        for line in path.read_text().splitlines():
            yield Segment(line.upper() + "\n", "log")

    log_format = dataclasses.replace(
        format_of(FileKind.TXT),
        extensions=(".log",),
        read=read_log,
        conversion=Conversion(target="log.txt", write=format_of(FileKind.HTML).conversion.write),
    )
    registry = {**registry_module._load(), FileKind.TXT: log_format}
    monkeypatch.setattr(registry_module, "_registry", registry)
    path = tmp_path / "server.log"
    path.write_text("accessed by admin\n")

    kind = detect_file_type(path, declared_name="server.log", declared_content_type="text/plain")

    assert kind is FileKind.TXT
    assert [segment.text for segment in extract_segments(path, kind)] == ["ACCESSED BY ADMIN\n"]
    assert conversion_target(kind) == "log.txt"
    with pytest.raises(InvalidFileType, match="not an accepted format"):
        detect_file_type(path.rename(tmp_path / "a.txt"), declared_name="a.txt",
                         declared_content_type=None)  # fmt: skip


def _limits():
    from assets.processing.isolation import ExtractionLimits

    return ExtractionLimits(memory_bytes=2**30, timeout_seconds=5, max_sheet_cells=10)
