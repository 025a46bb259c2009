"""Files that make a parser allocate far more than their size: read without the blow-up.

The spreadsheet is streamed row by row without padding to its declared dimension, and its
non-empty cells are bounded; Word table spans are never expanded. Run in-process here: a
regression would show as a MemoryError under the suite's memory bound, never as a machine
out of memory (``make test`` and these tests also pass under ``prlimit --as``).
"""

from __future__ import annotations

import os
import signal
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from assets.processing import (
    AssetProcessingError,
    ConversionFailed,
    ExtractionFailed,
    FileKind,
    Segment,
    extract_segments,
)
from assets.processing.isolation import (
    ExtractionCrashed,
    ExtractionLimits,
    exit_failure,
    isolated_extraction,
)
from formats.xlsx import convert_xlsx_to_csv
from tests.assets.bombs import (
    corner_cells_xlsx,
    grid_span_bomb_docx,
    paragraph_flood_docx,
    shared_string_xlsx,
    vertical_merge_docx,
    wide_first_row_xlsx,
    xlsx_bytes_with_cells,
)
from tests.assets.samples import docx_bytes


def _write(tmp_path: Path, name: str, content: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


def test_a_sheet_declared_from_a1_to_xfd1048576_is_read_as_its_two_cells(tmp_path: Path) -> None:
    path = _write(tmp_path, "corners.xlsx", corner_cells_xlsx())
    with zipfile.ZipFile(path) as archive:
        assert b'ref="A1:XFD1048576"' in archive.read("xl/worksheets/sheet1.xml")

    segments = list(extract_segments(path, FileKind.XLSX))

    # The empty columns B..XFC and rows 2..1048575 are dropped, as for any sheet.
    assert [(s.text, s.location) for s in segments] == [
        ("first corner,\n,last corner\n", "sheet Bomb")
    ]


def test_rows_under_a_cell_in_the_last_column_are_not_padded_to_it(tmp_path: Path) -> None:
    path = _write(tmp_path, "wide.xlsx", wide_first_row_xlsx(rows=5000))

    segments = list(extract_segments(path, FileKind.XLSX))

    text = "".join(segment.text for segment in segments)
    lines = text.splitlines()
    assert lines[0] == ",far right heading"
    assert lines[1:3] == ["entry 2,", "entry 3,"]
    assert lines[-1] == "bottom row,"
    assert len(lines) == 5002
    # A large sheet comes in pieces, each one under the sheet's name.
    assert len(segments) > 1
    assert {segment.location for segment in segments} == {"sheet Bomb"}


def test_the_converted_csv_names_a_sheet_once_even_when_it_comes_in_pieces(tmp_path: Path) -> None:
    path = _write(tmp_path, "wide.xlsx", wide_first_row_xlsx(rows=5000))
    destination = tmp_path / "wide.csv"

    names = convert_xlsx_to_csv(path, destination)

    text = destination.read_text(encoding="utf-8")
    assert names == ["Bomb"]
    assert text.count("## Sheet: ") == 1
    assert text.startswith("## Sheet: Bomb\n,far right heading\nentry 2,\n")
    assert text.endswith("bottom row,\n\n")


def test_a_sheet_over_the_cell_bound_fails_as_a_conversion(tmp_path: Path) -> None:
    cells = {f"{column}{row}": "x" for column in "ABCDE" for row in range(1, 5)}  # 20 cells
    path = _write(tmp_path, "twenty.xlsx", xlsx_bytes_with_cells(cells))

    assert len(list(extract_segments(path, FileKind.XLSX, max_sheet_cells=20))) == 1
    with pytest.raises(ConversionFailed) as caught:
        list(extract_segments(path, FileKind.XLSX, max_sheet_cells=19))

    assert caught.value.code == "CONVERSION_FAILED"
    assert caught.value.details == {"originalFormat": "xlsx", "targetFormat": "csv"}
    assert "more than 19 non-empty cells" in caught.value.message


def test_empty_cells_do_not_count_against_the_bound(tmp_path: Path) -> None:
    # Three non-empty cells declared over the whole grid; empty strings are not cells.
    cells = {"A1": "one", "C7": "", "XFD1048576": "two", "B2": "three"}
    path = _write(tmp_path, "sparse.xlsx", xlsx_bytes_with_cells(cells))

    segments = list(extract_segments(path, FileKind.XLSX, max_sheet_cells=3))

    assert segments[0].text == "one,,\n,three,\n,,two\n"


def test_scattered_cells_that_would_make_a_csv_of_separators_are_refused(tmp_path: Path) -> None:
    # 200 cells, each on a row and in a column of its own: a 200 x 200 grid.
    cells = {f"{_column_name(index + 1)}{index + 1}": "x" for index in range(200)}
    path = _write(tmp_path, "diagonal.xlsx", xlsx_bytes_with_cells(cells))

    with pytest.raises(ConversionFailed) as caught:
        list(extract_segments(path, FileKind.XLSX, max_sheet_cells=1000))

    assert "200 rows and 200 columns" in caught.value.message
    allowed = list(extract_segments(path, FileKind.XLSX, max_sheet_cells=40_000))
    assert len("".join(segment.text for segment in allowed).splitlines()) == 200


def _column_name(number: int) -> str:
    name = ""
    while number:
        number, remainder = divmod(number - 1, 26)
        name = chr(ord("A") + remainder) + name
    return name


def test_a_table_cell_spanning_two_billion_columns_is_read_once(tmp_path: Path) -> None:
    path = _write(tmp_path, "span.docx", grid_span_bomb_docx())

    text = "".join(segment.text for segment in extract_segments(path, FileKind.DOCX))

    assert "Spanning sub-processor | Oslo" in text
    assert "Second row | Bergen" in text


def test_merged_table_cells_are_read_once(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    table = document.add_table(rows=3, cols=3)
    for row_index, row in enumerate(table.rows):
        for column_index, cell in enumerate(row.cells):
            cell.text = f"r{row_index}c{column_index}"
    table.cell(0, 0).merge(table.cell(0, 1))  # horizontal
    table.cell(1, 2).merge(table.cell(2, 2))  # vertical
    path = tmp_path / "merged.docx"
    document.save(str(path))

    text = "".join(segment.text for segment in extract_segments(path, FileKind.DOCX))

    # The vertically merged cell's text is on the row that starts the merge, not repeated
    # on the row that continues it.
    assert text.splitlines() == [
        "r0c0 r0c1 | r0c2",
        "r1c0 | r1c1 | r1c2 r2c2",
        "r2c0 | r2c1",
    ]


def test_a_vertically_merged_cell_is_read_once_however_many_rows_continue_it(
    tmp_path: Path,
) -> None:
    # 2,000 rows continue a cell of 10,000 characters: read on every row, 20 million.
    path = _write(tmp_path, "vmerge.docx", vertical_merge_docx(rows=2000, text_length=10_000))

    text = "".join(segment.text for segment in extract_segments(path, FileKind.DOCX))

    assert 10_000 <= len(text) < 10_100


def _until_failure(segments: Iterator[Segment]) -> tuple[int, AssetProcessingError]:
    """(characters yielded, the failure that ended the stream)."""
    yielded = 0
    try:
        for segment in segments:
            yielded += len(segment.text)
    except AssetProcessingError as error:
        return yielded, error
    raise AssertionError(f"the stream ended without a failure after {yielded:,} characters")


def test_extraction_stops_once_the_text_passes_its_character_cap(tmp_path: Path) -> None:
    path = _write(tmp_path, "notes.txt", b"Retention of personnel files.\n" * 2000)  # 60,000

    yielded, error = _until_failure(extract_segments(path, FileKind.TXT, max_chars=50_000))

    assert yielded <= 50_000
    assert error.code == "EXTRACTION_FAILED"
    assert "longer than 50,000 characters" in error.message
    assert len("".join(s.text for s in extract_segments(path, FileKind.TXT, max_chars=60_000)))


def test_a_workbook_of_one_long_shared_string_is_refused_before_any_csv_is_written(
    tmp_path: Path,
) -> None:
    # 100 x 10 cells of one 5,000-character string: 5 million characters of CSV.
    content = shared_string_xlsx(rows=100, columns=10, string_length=5000)
    path = _write(tmp_path, "amplified.xlsx", content)
    assert len(content) < 20_000

    yielded, error = _until_failure(extract_segments(path, FileKind.XLSX, max_chars=1_000_000))

    assert yielded == 0  # the sheet's cells were counted before any of it was written
    assert isinstance(error, ConversionFailed)
    assert error.details == {"originalFormat": "xlsx", "targetFormat": "csv"}
    assert "longer than 1,000,000 characters" in error.message


def _limits(*, memory_mb: int = 1024, timeout: float = 120) -> ExtractionLimits:
    return ExtractionLimits(
        memory_bytes=memory_mb * 1024 * 1024, timeout_seconds=timeout, max_sheet_cells=5_000_000
    )


def test_an_isolated_extraction_returns_what_the_extraction_yields(tmp_path: Path) -> None:
    path = _write(
        tmp_path, "contract.docx", docx_bytes(["Processor agreement"], [["Sub", "Country"]])
    )

    with isolated_extraction(path, FileKind.DOCX, limits=_limits()) as segments:
        isolated = [(segment.text, segment.location) for segment in segments]

    assert isolated == [(s.text, s.location) for s in extract_segments(path, FileKind.DOCX)]


def test_an_isolated_extraction_hands_back_the_typed_failure(tmp_path: Path) -> None:
    cells = {f"A{row}": "x" for row in range(1, 11)}
    path = _write(tmp_path, "ten.xlsx", xlsx_bytes_with_cells(cells))
    limits = ExtractionLimits(memory_bytes=1 << 30, timeout_seconds=120, max_sheet_cells=9)

    with (
        pytest.raises(ConversionFailed) as caught,
        isolated_extraction(path, FileKind.XLSX, limits=limits) as segments,
    ):
        list(segments)

    assert caught.value.details == {"originalFormat": "xlsx", "targetFormat": "csv"}


def test_a_file_that_needs_more_memory_than_the_bound_fails_and_the_caller_lives(
    tmp_path: Path,
) -> None:
    # 300,000 paragraphs: python-docx's XML tree of it takes far more than 192 MiB.
    path = _write(tmp_path, "flood.docx", paragraph_flood_docx(300_000))

    with (
        pytest.raises(ExtractionFailed) as caught,
        isolated_extraction(path, FileKind.DOCX, limits=_limits(memory_mb=192)),
    ):
        pass

    assert caught.value.code == "EXTRACTION_FAILED"
    assert "more than 192 MiB of memory" in caught.value.message
    # The same bound reads an ordinary file.
    small = _write(tmp_path, "small.docx", docx_bytes(["Retention: six years."]))
    with isolated_extraction(small, FileKind.DOCX, limits=_limits(memory_mb=192)) as segments:
        assert "six years" in "".join(segment.text for segment in segments)


def test_a_file_that_takes_longer_than_the_bound_fails(tmp_path: Path) -> None:
    path = _write(tmp_path, "flood.docx", paragraph_flood_docx(300_000))

    with (
        pytest.raises(ExtractionFailed) as caught,
        isolated_extraction(path, FileKind.DOCX, limits=_limits(timeout=0.5)),
    ):
        pass

    assert "longer than 0.5 seconds" in caught.value.message


def test_an_unexpected_error_in_the_child_is_a_crash_not_the_files_fault(tmp_path: Path) -> None:
    missing = tmp_path / "gone.txt"  # the stored copy vanished: not the uploader's doing

    with (
        pytest.raises(ExtractionCrashed),
        isolated_extraction(missing, FileKind.TXT, limits=_limits()),
    ):
        pass


def test_an_isolated_extraction_over_the_character_cap_fails_and_leaves_no_file(
    tmp_path: Path,
) -> None:
    path = _write(
        tmp_path, "amplified.xlsx", shared_string_xlsx(rows=50, columns=10, string_length=2000)
    )
    work = tmp_path / "work"
    work.mkdir()
    limits = ExtractionLimits(
        memory_bytes=1 << 30, timeout_seconds=120, max_sheet_cells=5_000_000, max_chars=100_000
    )

    with (
        pytest.raises(ConversionFailed) as caught,
        isolated_extraction(path, FileKind.XLSX, limits=limits, work_directory=work),
    ):
        pass

    assert "longer than 100,000 characters" in caught.value.message
    assert list(work.iterdir()) == []


def test_the_extraction_child_cannot_write_more_than_its_output_bound(tmp_path: Path) -> None:
    # As if the character cap had a bug: the file-size limit of the child still holds.
    path = _write(tmp_path, "notes.txt", b"Retention of personnel files.\n" * 10_000)  # 300 KB
    work = tmp_path / "work"
    work.mkdir()
    limits = ExtractionLimits(
        memory_bytes=1 << 30,
        timeout_seconds=120,
        max_sheet_cells=5_000_000,
        max_chars=None,
        max_output_bytes=64 * 1024,
    )

    with (
        pytest.raises(ExtractionFailed) as caught,
        isolated_extraction(path, FileKind.TXT, limits=limits, work_directory=work),
    ):
        pass

    assert not isinstance(caught.value, ExtractionCrashed)
    assert "larger than 65,536 bytes" in caught.value.message
    assert list(work.iterdir()) == []


def test_a_child_killed_for_the_size_of_its_output_is_the_files_failure() -> None:
    limits = ExtractionLimits(
        memory_bytes=1 << 30, timeout_seconds=120, max_sheet_cells=1, max_output_bytes=4096
    )

    failure = exit_failure(-signal.SIGXFSZ, kind=FileKind.XLSX, limits=limits)

    assert isinstance(failure, ConversionFailed)
    assert "larger than 4,096 bytes" in failure.message


def test_an_extraction_stops_and_ends_its_child_when_its_check_interrupt_raises(
    tmp_path: Path,
) -> None:
    """A stopping worker hands its asset back without waiting for the file (assets.worker)."""
    path = _write(tmp_path, "flood.docx", paragraph_flood_docx(300_000))
    children: list[int] = []
    # Processes this one had already started (the embedded servers a test run starts on
    # first need are children of the pytest process): not the extraction's.
    earlier = set(_children_of_this_process())

    class StoppingError(Exception):
        pass

    def check_interrupt() -> None:
        children.extend(int(pid) for pid in _children_of_this_process() if pid not in earlier)
        if children:  # the child runs: stop now
            raise StoppingError

    started = time.monotonic()
    with (
        pytest.raises(StoppingError),
        isolated_extraction(
            path, FileKind.DOCX, limits=_limits(timeout=60), check_interrupt=check_interrupt
        ),
    ):
        pass

    assert time.monotonic() - started < 20
    assert children
    assert all(not Path(f"/proc/{pid}").exists() for pid in children)


def _children_of_this_process() -> list[str]:
    pid = os.getpid()
    return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
