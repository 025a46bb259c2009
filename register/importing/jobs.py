"""Register imports as jobs: started by the API or the admin, run by a worker, never by the web.

A `RegisterImport` row carries the job: its own `status` (what the API shows) and the one
lease of background work (common.background; the kind is register.work.KIND). The life
of one import:

* `start_import` (web): stores the uploaded file, saves the row `queued` (at most
  REGISTER_IMPORT_MAX_RUNNING queued or running per organization: IMPORT_LIMIT) and queues
  it: its task goes to the `imports` queue once committed. A broker that refuses the task
  leaves it queued; the sweeper sends it again, and fails it (SERVICE_UNAVAILABLE, its file
  deleted) once it waited register.work.MAX_QUEUED_SECONDS: nothing stays queued for good.
* `claim` (worker): takes the lease for one attempt; a finished import is not run again,
  and one whose running attempt still holds its lease raises LeaseHeldError.
* the attempt runs `execute` in a child process bounded in memory and time
  (register.import_child); `execute` reads the stored file, calls `import_register` and
  records the plan (`complete`) or the error (`fail`). The child dies, is killed or times
  out: the worker fails the import with what happened.
* `complete` / `fail`: only the holder of the lease may; the file is deleted once the
  import ran (an admin preview keeps it until its confirmation or REGISTER_IMPORT_PREVIEW_
  SECONDS), the status goes out on the organization's socket and to its webhooks.
* the one sweeper (beat, common.background) requeues or fails imports whose lease expired
  and sends queued ones again; `clean_up` (beat, register.tasks) deletes the files no
  import needs any more and the imports past their keeping.
"""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from typing import IO, Any

from django.conf import settings
from django.core.files import File
from django.core.files.base import ContentFile
from django.core.files.storage import Storage, storages
from django.db import transaction
from django.utils import timezone

from audit.services import Actor
from common.background import leases, slots
from common.child_process import near_memory_limit
from common.domain import DomainError
from organizations.models import Organization
from register.exceptions import ImportLimitReached
from register.importing.planning import ImportPlan
from register.models import ImportStatus, RegisterImport
from register.work import KIND

logger = logging.getLogger(__name__)

# The error details kept (e.g. the headers found in each sheet), in JSON characters.
MAX_ERROR_DETAILS_CHARS = 64 * 1024
RUNNING = (ImportStatus.QUEUED, ImportStatus.PROCESSING)
UNEXPECTED_FAILURE = "The import could not be run; the error was logged."


# -- the body of a plan (the API's answer, the admin's preview) -------------------------------
def plan_body(*, plan: ImportPlan, dry_run: bool, file_name: str) -> dict[str, Any]:
    """The plan as the API shows it, its rows cut at REGISTER_IMPORT_RESULT_MAX_BYTES.

    The totals always count every row; the rows past the bound are counted in
    `omittedRows` instead of listed (a stored plan, and the answer, stay bounded).
    """
    body: dict[str, Any] = {
        "dryRun": dry_run,
        "fileName": file_name,
        "sheets": [layout.as_dict() for layout in plan.layouts],
        "ignoredSheets": plan.ignored_sheets,
        "rows": [],
        "omittedRows": 0,
        "totals": plan.totals(),
    }
    budget = settings.REGISTER_IMPORT_RESULT_MAX_BYTES - len(json.dumps(body, default=str))
    rows = plan.rows
    for index, row in enumerate(rows):
        listed = row.as_dict()
        budget -= len(json.dumps(listed, default=str)) + 2
        if budget < 0:
            body["omittedRows"] = len(rows) - index
            break
        body["rows"].append(listed)
    return body


# -- starting ---------------------------------------------------------------------------------
def _storage() -> Storage:
    return storages["default"]


def _file_key(register_import: RegisterImport) -> str:
    return f"register-imports/{register_import.organization_id}/{register_import.pk}.upload"


def _actor_record(actor: Actor) -> dict[str, Any]:
    return {
        "label": actor.label,
        "user_id": actor.user_id,
        "ip": actor.ip,
        "key_prefix": actor.key_prefix,
    }


def import_actor(register_import: RegisterImport) -> Actor:
    record = register_import.actor or {}
    return Actor(
        label=str(record.get("label") or "unknown"),
        user_id=record.get("user_id"),
        ip=record.get("ip"),
        key_prefix=record.get("key_prefix"),
    )


def start_import(
    *,
    organization: Organization,
    actor: Actor,
    file_name: str,
    content: File | IO[bytes] | bytes,
    file_size: int,
    dry_run: bool,
    via: str = "api",
    keep_file: bool = False,
) -> RegisterImport:
    """Store the file, queue the import, send it to a worker once committed.

    Raises ImportLimitReached (429) when the organization already has
    REGISTER_IMPORT_MAX_RUNNING imports queued or running; then nothing is stored.
    `keep_file`: a preview of the admin, whose file waits for the confirmation.
    """
    register_import = RegisterImport(
        organization=organization,
        actor=_actor_record(actor),
        user_id=actor.user_id,
        via=via,
        dry_run=dry_run,
        file_name=(file_name or "register")[:255],
        file_size=file_size,
    )
    with transaction.atomic():
        _claim_slot(organization)
        key = _file_key(register_import)
        stored = content if isinstance(content, File) else _as_file(content, key)
        register_import.file_key = _storage().save(key, stored)
        if keep_file:
            register_import.keep_file_until = timezone.now() + timedelta(
                seconds=settings.REGISTER_IMPORT_PREVIEW_SECONDS
            )
        try:
            register_import.save()
        except BaseException:
            _delete_file(register_import.file_key)
            raise
        _prune(organization)
        leases.queue(KIND, register_import)
    return register_import


def _as_file(content: IO[bytes] | bytes, key: str) -> File:
    if isinstance(content, bytes):
        return ContentFile(content, name=key.rsplit("/", 1)[-1])
    return File(content, name=key.rsplit("/", 1)[-1])


def confirm_preview(*, preview: RegisterImport, actor: Actor) -> RegisterImport | None:
    """Apply the file of a completed admin preview: a new import that takes over its file.

    None when the preview cannot be applied (not a completed dry run, applied already, or
    its file expired).
    """
    with transaction.atomic():
        locked = RegisterImport.objects.select_for_update().filter(pk=preview.pk).first()
        if (
            locked is None
            or not locked.dry_run
            or locked.status != ImportStatus.COMPLETED
            or not locked.file_key
            or locked.keep_file_until is None
            or locked.keep_file_until < timezone.now()
        ):
            return None
        _claim_slot(locked.organization)
        applied = RegisterImport.objects.create(
            organization=locked.organization,
            actor=_actor_record(actor),
            user_id=actor.user_id,
            via=locked.via,
            dry_run=False,
            file_name=locked.file_name,
            file_size=locked.file_size,
            file_key=locked.file_key,
        )
        locked.file_key = ""
        locked.keep_file_until = None
        locked.save(update_fields=["file_key", "keep_file_until"])
        leases.queue(KIND, applied)
    return applied


def _claim_slot(organization: Organization) -> None:
    slots.claim_slot(
        owner=organization,
        running=RegisterImport.objects.filter(organization=organization, status__in=RUNNING),
        limit=settings.REGISTER_IMPORT_MAX_RUNNING,
        refuse=lambda running, limit: ImportLimitReached(running=running, limit=limit),
    )


def _prune(organization: Organization) -> None:
    """Keep the REGISTER_IMPORTS_KEPT newest finished imports of the organization."""
    finished = RegisterImport.objects.filter(organization=organization).exclude(status__in=RUNNING)
    old = list(finished.order_by("-created_at")[settings.REGISTER_IMPORTS_KEPT :])
    _delete_imports(old)


def _delete_imports(imports: list[RegisterImport]) -> None:
    for register_import in imports:
        if register_import.file_key and not _delete_file(register_import.file_key):
            continue  # kept (with its key) until its file is gone: no orphan
        register_import.delete()


# -- running ----------------------------------------------------------------------------------
def claim(*, import_id: str) -> str | None:
    """Take the lease of one attempt; its token, or None when there is nothing to run.

    Raises LeaseHeldError while another attempt holds an unexpired lease. An import whose
    attempts are spent fails (IMPORT_INTERRUPTED) instead of being run again.
    """
    with transaction.atomic():
        lease = leases.claim(KIND, import_id)
        if lease is None:
            return None
        register_import = lease.row
        register_import.status = ImportStatus.PROCESSING
        register_import.stage = "reading"
        register_import.started_at = register_import.started_at or timezone.now()
        register_import.save(update_fields=["status", "stage", "started_at"])
        _announce_after_commit(register_import.pk)
        return lease.token


def execute(*, import_id: str, token: str, memory_limit: int | None = None) -> None:
    """Run the claimed import here (in the child process): read, plan, write, record.

    A refusal of the file (unreadable, no header row, a name conflict...) fails the import
    with the service's code, message and details; anything else with a generic message
    (the error is logged). Never raises for the import's own failures, except MemoryError
    (also for an error raised near `memory_limit`, the child's bound), which the child
    turns into its out-of-memory exit.
    """
    from register.importing import import_register

    register_import = RegisterImport.objects.select_related("organization").get(pk=import_id)
    if str(register_import.lease_token) != token or register_import.finished:
        return

    def on_stage(stage: str) -> None:
        RegisterImport.objects.filter(pk=import_id, lease_token=token).update(stage=stage)

    try:
        with _storage().open(register_import.file_key, "rb") as stored:
            content = stored.read(settings.REGISTER_IMPORT_MAX_BYTES + 1)
        plan = import_register(
            organization=register_import.organization,
            content=content,
            file_name=register_import.file_name,
            actor=import_actor(register_import),
            dry_run=register_import.dry_run,
            on_stage=on_stage,
        )
        result = plan_body(
            plan=plan, dry_run=register_import.dry_run, file_name=register_import.file_name
        )
    except MemoryError:
        raise  # the child exits as out of memory; the worker fails the import with it
    except DomainError as refusal:
        fail(
            import_id=import_id,
            token=token,
            code=refusal.code,
            message=refusal.message,
            details=refusal.details,
        )
        return
    except Exception as error:
        if memory_limit is not None and near_memory_limit(memory_limit):
            raise MemoryError from error
        logger.exception("register import %s failed", import_id)
        fail(import_id=import_id, token=token, code="INTERNAL_ERROR", message=UNEXPECTED_FAILURE)
        return
    complete(import_id=import_id, token=token, result=result)


def complete(*, import_id: str, token: str, result: dict[str, Any]) -> RegisterImport | None:
    with transaction.atomic():
        register_import = leases.holding(KIND, import_id, token)
        if register_import is None:
            return None
        register_import.status = ImportStatus.COMPLETED
        register_import.result = result
        _end(register_import)
        leases.finish(register_import)
    _discard_file_unless_kept(register_import)
    return register_import


def fail(
    *, import_id: str, token: str | None, code: str, message: str, details: Any = None
) -> RegisterImport | None:
    """Fail the import, if `token` still holds it (None: whichever attempt)."""
    with transaction.atomic():
        register_import = leases.holding(KIND, import_id, token)
        if register_import is None:
            return None
        _finish_failed(register_import, code=code, message=message, details=details)
        leases.finish(register_import, error=code)
    _discard_file_unless_kept(register_import)
    return register_import


# How the lease ends an import it gave up on (register.work.KIND.end_failed).
END_FAILED = {
    "interrupted": (
        "IMPORT_INTERRUPTED",
        f"The import was interrupted {KIND.max_attempts} times; upload it again.",
    ),
    "unsent": (
        "SERVICE_UNAVAILABLE",
        "The import queue was unavailable; the import was not started. Retry shortly.",
    ),
}


def end_failed(register_import: RegisterImport, reason: str) -> None:
    """Fail the locked import the lease gave up on (its caller then ends the lease).

    Its file is deleted at once, inside the caller's transaction: should that roll back,
    the import runs again and fails on the missing file, which is still an end.
    """
    code, message = END_FAILED[reason]
    _finish_failed(register_import, code=code, message=message)
    if register_import.file_key and _delete_file(register_import.file_key):
        register_import.file_key = ""
        register_import.save(update_fields=["file_key"])


def _finish_failed(
    register_import: RegisterImport, *, code: str, message: str, details: Any = None
) -> None:
    if details is not None and len(json.dumps(details, default=str)) > MAX_ERROR_DETAILS_CHARS:
        details = {"omitted": f"longer than {MAX_ERROR_DETAILS_CHARS:,} characters"}
    register_import.status = ImportStatus.FAILED
    register_import.error_code = code[:32]
    register_import.error_message = message[:2000]
    register_import.error_details = details
    register_import.keep_file_until = None
    _end(register_import)


def _end(register_import: RegisterImport) -> None:
    """Save the import's own outcome (the caller ends its lease in the same transaction)."""
    register_import.stage = ""
    register_import.completed_at = timezone.now()
    register_import.save(
        update_fields=[
            "status", "stage", "result", "error_code", "error_message", "error_details",
            "keep_file_until", "completed_at",
        ]
    )  # fmt: skip
    _announce_after_commit(register_import.pk, final=True)


def _discard_file_unless_kept(register_import: RegisterImport) -> None:
    kept = register_import.keep_file_until
    if kept is not None and kept > timezone.now() and register_import.status == "completed":
        return
    if register_import.file_key and _delete_file(register_import.file_key):
        RegisterImport.objects.filter(pk=register_import.pk).update(
            file_key="", keep_file_until=None
        )


def _delete_file(key: str) -> bool:
    """Delete a stored file; False (logged) when the storage refused (the sweep retries)."""
    try:
        _storage().delete(key)
    except Exception:
        logger.warning("could not delete the register import file %s", key, exc_info=True)
        return False
    return True


def _announce_after_commit(import_id: Any, *, final: bool = False) -> None:
    from register.import_events import announce

    transaction.on_commit(lambda: announce(import_id=import_id, final=final))


# -- the clean-up (beat, register.tasks) ------------------------------------------------------
def clean_up() -> dict[str, int]:
    """Delete the files no import needs any more and the imports past their keeping.

    Not about leases (the one sweeper of background work requeues and fails imports): a
    file whose deletion the storage refused when its import ended, an admin preview's file
    past REGISTER_IMPORT_PREVIEW_SECONDS, imports older than REGISTER_IMPORT_KEEP_DAYS.
    """
    now = timezone.now()
    counts = {"files": 0, "deleted": 0}
    leftovers = RegisterImport.objects.filter(
        status__in=(ImportStatus.COMPLETED, ImportStatus.FAILED)
    ).exclude(file_key="")
    for register_import in leftovers.exclude(keep_file_until__gt=now):
        if _delete_file(register_import.file_key):
            RegisterImport.objects.filter(pk=register_import.pk).update(
                file_key="", keep_file_until=None
            )
            counts["files"] += 1
    old = RegisterImport.objects.exclude(status__in=RUNNING).filter(
        created_at__lt=now - timedelta(days=settings.REGISTER_IMPORT_KEEP_DAYS)
    )
    before = RegisterImport.objects.count()
    _delete_imports(list(old))
    counts["deleted"] = before - RegisterImport.objects.count()
    return counts
