"""`manifest.json` of an inspection package, and the check of a ZIP against it.

The manifest lists every other file of the ZIP with its size and SHA-256. A package is valid
when the manifest is readable, every listed file exists with that size and hash, and no
file exists that the manifest does not list.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

MANIFEST_NAME = "manifest.json"
MANIFEST_FORMAT = "legaldocs-inspection-package/1"


def sha256_bytes(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def build_manifest(files: Mapping[str, bytes], *, about: Mapping[str, Any]) -> bytes:
    """The manifest of `files` (path -> bytes), with `about` (package id, organization...)."""
    manifest = {
        "format": MANIFEST_FORMAT,
        **about,
        "algorithm": "sha256",
        "files": [
            {"path": path, "size": len(content), "sha256": sha256_bytes(content)}
            for path, content in files.items()
        ],
    }
    return json.dumps(manifest, indent=2, ensure_ascii=False).encode("utf-8")


@dataclass(frozen=True)
class PackageCheck:
    """The result of `verify_package`: `problem` names the first mismatch when not valid."""

    valid: bool
    files_checked: int
    problem: str = ""


def verify_package(source: str | Path | IO[bytes]) -> PackageCheck:
    """Check a package ZIP (path or binary file) against its `manifest.json`.

    Never raises for a bad package: an unreadable ZIP or manifest is reported as a problem.
    """
    try:
        with zipfile.ZipFile(source) as archive:
            return _check_archive(archive)
    except (zipfile.BadZipFile, OSError) as error:
        return PackageCheck(False, 0, f"not a readable ZIP file: {error}")


def _check_archive(archive: zipfile.ZipFile) -> PackageCheck:
    names = [info.filename for info in archive.infolist() if not info.is_dir()]
    if MANIFEST_NAME not in names:
        return PackageCheck(False, 0, f"{MANIFEST_NAME} is missing")
    try:
        manifest = json.loads(archive.read(MANIFEST_NAME))
        listed = {entry["path"]: entry for entry in manifest["files"]}
    except (ValueError, KeyError, TypeError) as error:
        return PackageCheck(False, 0, f"{MANIFEST_NAME} is not readable: {error}")
    checked = 0
    for path, entry in listed.items():
        if path not in names:
            return PackageCheck(False, checked, f"{path}: listed in the manifest but missing")
        content = archive.read(path)
        if len(content) != entry.get("size"):
            return PackageCheck(
                False, checked, f"{path}: size {len(content)} differs from {entry.get('size')}"
            )
        if sha256_bytes(content) != entry.get("sha256"):
            return PackageCheck(False, checked, f"{path}: SHA-256 differs from the manifest")
        checked += 1
    for name in names:
        if name != MANIFEST_NAME and name not in listed:
            return PackageCheck(False, checked, f"{name}: not listed in the manifest")
    return PackageCheck(True, checked)
