"""`manifest.json` of an inspection package, and the check of a ZIP against it.

The manifest lists every other file of the ZIP with its size and SHA-256. A package is valid
when the manifest is readable, every listed file exists with that size and hash, and no
file exists that the manifest does not list.

The manifest's own hashes can be recomputed by whoever rewrites the files, so it carries a
`signature` (HMAC-SHA256 with the evidence key, common/evidence.py) over the canonical JSON
of every other manifest field: sorted keys, no spaces, UTF-8. Only a holder of the key
(the service's operator) can check it; a package from before manifests were signed can
still have its files checked with `allow_unsigned`.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from common.evidence import ALGORITHM, PACKAGE_MANIFEST, Signature, sign, signature_problem

MANIFEST_NAME = "manifest.json"
MANIFEST_FORMAT = "legaldocs-inspection-package/1"


def sha256_bytes(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def build_manifest(files: Mapping[str, bytes], *, about: Mapping[str, Any]) -> bytes:
    """The manifest of `files` (path -> bytes), with `about` (package id, organization...)."""
    manifest: dict[str, Any] = {
        "format": MANIFEST_FORMAT,
        **about,
        "algorithm": "sha256",
        "files": [
            {"path": path, "size": len(content), "sha256": sha256_bytes(content)}
            for path, content in files.items()
        ],
    }
    signature = sign(purpose=PACKAGE_MANIFEST, payload=manifest)
    manifest["signature"] = {
        "algorithm": ALGORITHM,
        "keyId": signature.key_id,
        "value": signature.value,
    }
    return json.dumps(manifest, indent=2, ensure_ascii=False).encode("utf-8")


def _manifest_signature_problem(manifest: dict[str, Any]) -> str | None:
    signed = {key: value for key, value in manifest.items() if key != "signature"}
    stored = manifest.get("signature")
    signature = None
    if isinstance(stored, dict) and stored.get("algorithm") == ALGORITHM:
        signature = Signature(
            key_id=str(stored.get("keyId") or ""), value=str(stored.get("value") or "")
        )
    return signature_problem(purpose=PACKAGE_MANIFEST, payload=signed, signature=signature)


@dataclass(frozen=True)
class PackageCheck:
    """The result of `verify_package`: `problem` names the first mismatch when not valid."""

    valid: bool
    files_checked: int
    problem: str = ""
    signed: bool = False


def verify_package(source: str | Path | IO[bytes], *, allow_unsigned: bool = False) -> PackageCheck:
    """Check a package ZIP (path or binary file) against its `manifest.json`, and the
    manifest against its signature (the current or an old evidence key).

    `allow_unsigned`: a manifest with no signature at all (built before manifests were
    signed) is checked for its files only; a signature that is present must still hold.
    Never raises for a bad package: an unreadable ZIP or manifest is reported as a problem.
    """
    try:
        with zipfile.ZipFile(source) as archive:
            return _check_archive(archive, allow_unsigned=allow_unsigned)
    except (zipfile.BadZipFile, OSError) as error:
        return PackageCheck(False, 0, f"not a readable ZIP file: {error}")


def _check_archive(archive: zipfile.ZipFile, *, allow_unsigned: bool) -> PackageCheck:
    names = [info.filename for info in archive.infolist() if not info.is_dir()]
    if MANIFEST_NAME not in names:
        return PackageCheck(False, 0, f"{MANIFEST_NAME} is missing")
    try:
        manifest = json.loads(archive.read(MANIFEST_NAME))
        listed = {entry["path"]: entry for entry in manifest["files"]}
    except (ValueError, KeyError, TypeError) as error:
        return PackageCheck(False, 0, f"{MANIFEST_NAME} is not readable: {error}")
    unsigned_allowed = allow_unsigned and "signature" not in manifest
    problem = None if unsigned_allowed else _manifest_signature_problem(manifest)
    if problem is not None:
        return PackageCheck(False, 0, f"{MANIFEST_NAME}: {problem}")
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
    return PackageCheck(True, checked, signed=not unsigned_allowed)
