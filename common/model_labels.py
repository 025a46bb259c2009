"""The admin's names of our apps, models and fields, in the user's language.

Django derives a model's and a field's name from its Python name when none is given, and
none of our models gives one: the names below are the same English ones, marked for
translation. They are set when the apps are ready (`CommonConfig.ready`) instead of as
`verbose_name=` in every model: a field's `verbose_name` given in the model is part of its
migration state, set here it is not (`Field.deconstruct` reads the one passed to the
constructor, `ModelState` the model's original Meta), so translating a label never needs a
migration nor conflicts with another branch's. Keyed by strings: `common` imports no app.
`tests/common/test_model_labels.py` fails when a model or field of our apps has no entry.
"""

from __future__ import annotations

from django.apps import apps
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from common.apps_list import PROJECT_APPS

APP_LABELS: dict[str, Promise] = {
    "common": _("Service infrastructure"),
    "organizations": _("Organizations"),
    "audit": _("Audit trail"),
    "legal_documents": _("Legal documents"),
    "assets": _("Assets"),
    "webhooks": _("Webhooks"),
    "register": _("Register of processing activities"),
    "compliance": _("Compliance"),
    "reviews": _("Document reviews"),
}

# "app_label.modelname": (singular, plural)
MODEL_LABELS: dict[str, tuple[Promise, Promise]] = {
    "organizations.organization": (_("organization"), _("organizations")),
    "organizations.membership": (_("membership"), _("memberships")),
    "organizations.clientcompany": (_("client company"), _("client companies")),
    "organizations.apikey": (_("API key"), _("API keys")),
    "audit.auditevent": (_("audit event"), _("audit events")),
    "audit.chaincheckpoint": (_("chain checkpoint"), _("chain checkpoints")),
    "legal_documents.legaldocument": (_("legal document"), _("legal documents")),
    "legal_documents.historicallegaldocument": (
        _("historical legal document"),
        _("historical legal documents"),
    ),
    "legal_documents.documentversion": (_("document version"), _("document versions")),
    "legal_documents.documentiteration": (_("document iteration"), _("document iterations")),
    "legal_documents.documentationpackage": (
        _("documentation package"),
        _("documentation packages"),
    ),
    "assets.asset": (_("asset"), _("assets")),
    "reviews.review": (_("document review"), _("document reviews")),
    "reminders.reminderpreference": (_("reminder preference"), _("reminder preferences")),
    "reminders.sentreminder": (_("reminder sent"), _("reminders sent")),
    "assets.assetchunk": (_("asset chunk"), _("asset chunks")),
    "assets.embeddingindex": (_("embedding index"), _("embedding indexes")),
    "assets.reembedjob": (_("re-embedding job"), _("re-embedding jobs")),
    "webhooks.webhookendpoint": (_("webhook endpoint"), _("webhook endpoints")),
    "webhooks.webhookdelivery": (_("webhook delivery"), _("webhook deliveries")),
    "register.processingactivity": (_("processing activity"), _("processing activities")),
    "register.historicalprocessingactivity": (
        _("historical processing activity"),
        _("historical processing activities"),
    ),
    "register.historicalprocessingactivity_vendors": (
        _("historical vendor link of a processing activity"),
        _("historical vendor links of processing activities"),
    ),
    "register.vendor": (_("vendor"), _("vendors")),
    "register.historicalvendor": (_("historical vendor"), _("historical vendors")),
    "register.transfer": (_("transfer"), _("transfers")),
    "register.registerimport": (_("register import"), _("register imports")),
    "register.historicaltransfer": (_("historical transfer"), _("historical transfers")),
}

# By field name, the same in every model that has it.
FIELD_LABELS: dict[str, Promise] = {
    # What OCR did for a scanned PDF (assets.Asset).
    "ocr": _("text recognition (OCR)"),
    # A reminder sent (reminders.SentReminder): what it is about and which step of its clock.
    "subject_id": _("subject ID"),
    "occurrence": _("occurrence"),
    # A review of a document the organization did not write (reviews.Review).
    "document_language": _("language of the document"),
    "verdict": _("verdict"),
    "counts": _("counts"),
    "items": _("items"),
    "ruleset": _("rule set"),
    "method": _("method"),
    "embedding_model": _("embedding model"),
    "embedding_next": _("next embedding"),
    "embedding_next_model": _("next embedding model"),
    "active_model": _("active model"),
    "source_model": _("source model"),
    "target_model": _("target model"),
    "phase": _("phase"),
    "batch_size": _("batch size"),
    "cursor": _("cursor"),
    "chunks_done": _("chunks done"),
    "batches_done": _("batches done"),
    "chunks_total": _("chunks in total"),
    "swapped_at": _("swapped at"),
    "finished_at": _("finished at"),
    # A register import (register.RegisterImport).
    "user_id": _("user ID"),
    "via": _("via"),
    "dry_run": _("dry run"),
    "file_key": _("stored file"),
    "keep_file_until": _("file kept until"),
    "lease_token": _("lease token"),
    "lease_expires_at": _("lease expires at"),
    "attempts": _("attempts"),
    # The lease of background work (common.background.fields.LeasedWork).
    "lease_state": _("lease state"),
    "due_at": _("due at"),
    "last_error": _("last error"),
    "result": _("result"),
    "id": _("ID"),
    "action": _("action"),
    "activity": _("processing activity"),
    "actor": _("actor"),
    "actor_user": _("actor user"),
    "address": _("address"),
    "answers": _("answers"),
    "api_key": _("API key"),
    "art9_conditions": _("Art. 9(2) conditions"),
    "asset": _("asset"),
    "at": _("at"),
    "attempt": _("attempt"),
    "author": _("author"),
    "chain": _("chain"),
    "chain_sha256": _("chain SHA-256"),
    "change_reason": _("change reason"),
    "chunk_count": _("chunk count"),
    "client_company": _("client company"),
    "completed_at": _("completed at"),
    "compliance_complete": _("compliance complete"),
    "compliance_missing": _("compliance missing"),
    "consent_withdrawal": _("consent withdrawal"),
    "container_name": _("container name"),
    "content_html": _("content HTML"),
    "content_markdown": _("content markdown"),
    "content_sha256": _("content SHA-256"),
    "content_text": _("content text"),
    "converted_file": _("converted file"),
    "converted_size": _("converted size"),
    "country": _("country"),
    "created_at": _("created at"),
    "creator": _("creator"),
    "data_categories": _("categories of personal data"),
    "data_subjects": _("categories of data subjects"),
    "description": _("description"),
    "details": _("details"),
    "document": _("document"),
    "document_count": _("document count"),
    "document_type": _("document type"),
    "dpa_signed_on": _("DPA signed on"),
    "dpa_status": _("DPA status"),
    # The last review of a vendor's DPA (register.services.vendor_record_dpa_review).
    "dpa_review_id": _("DPA review"),
    "dpa_review_has_gaps": _("DPA review found gaps"),
    "dpa_review_missing_items": _("items missing from the DPA"),
    "dpa_reviewed_at": _("DPA reviewed at"),
    "dpia_screening": _("DPIA screening"),
    "duration_ms": _("duration (ms)"),
    "embedding": _("embedding"),
    "embedding_provider": _("embedding provider"),
    "endpoint": _("endpoint"),
    "error": _("error"),
    "error_code": _("error code"),
    "error_details": _("error details"),
    "error_message": _("error message"),
    "event": _("event"),
    "event_id": _("event ID"),
    "events": _("events"),
    "file_name": _("file name"),
    "file_size": _("file size"),
    "filters": _("filters"),
    "finalize_answers": _("finalize answers"),
    "finalize_questions": _("finalize questions"),
    "hash": _("hash"),
    "head_event_id": _("head event ID"),
    "head_hash": _("head hash"),
    "history": _("history"),
    "history_change_reason": _("history change reason"),
    "history_date": _("history date"),
    "history_id": _("history ID"),
    "history_type": _("history type"),
    "history_user": _("history user"),
    "index": _("index"),
    "inputs": _("inputs"),
    "ip": _("IP address"),
    "is_active": _("is active"),
    "job_id": _("job ID"),
    "job_kind": _("job kind"),
    "joint_controllers": _("joint controllers"),
    "key_hash": _("key hash"),
    "key_id": _("key ID"),
    "language": _("language"),
    "last_used_at": _("last used at"),
    "legal_bases": _("legal bases"),
    "location": _("location"),
    "m2m_history_id": _("link history ID"),
    "mechanism": _("transfer mechanism"),
    "mechanism_wording": _("transfer mechanism (wording)"),
    "media_type": _("media type"),
    "membership": _("membership"),
    "message": _("message"),
    "message_id": _("message ID"),
    "name": _("name"),
    "next_attempt_at": _("next attempt at"),
    "next_review_date": _("next review date"),
    "number": _("number"),
    "object_id": _("object ID"),
    "object_type": _("object type"),
    "organization": _("organization"),
    "original_file": _("original file"),
    "original_file_name": _("original file name"),
    "outcome": _("outcome"),
    "owner": _("owner"),
    "page_number": _("page number"),
    "payload": _("payload"),
    "plan": _("plan"),
    "prefix": _("prefix"),
    "previous_hash": _("previous hash"),
    "link_key_id": _("link key"),
    "previous_sha256": _("previous SHA-256"),
    "processing_stage": _("processing stage"),
    "processing_started_at": _("processing started at"),
    "processingactivity": _("processing activity"),
    "progress_chunks_done": _("chunks done"),
    "progress_chunks_total": _("chunks in total"),
    "progress_started_at": _("progress started at"),
    "provider": _("provider"),
    "purposes": _("purposes"),
    "recipient": _("recipient"),
    "recipients": _("recipients"),
    "reference": _("reference"),
    "register_sources": _("register sources"),
    "requested_by": _("requested by"),
    "response": _("response"),
    "resulting_version": _("resulting version"),
    "retention": _("retention"),
    "revision": _("revision"),
    "revoked_at": _("revoked at"),
    "role": _("role"),
    "ruleset_version": _("ruleset version"),
    "search_vector": _("search vector"),
    "secret_encrypted": _("secret (encrypted)"),
    "security_measures": _("security measures"),
    "services": _("services"),
    "sha256": _("SHA-256"),
    "sheet_name": _("sheet name"),
    "signature": _("signature"),
    "signature_key_id": _("signature key ID"),
    "signed_at": _("signed at"),
    "size_bytes": _("size (bytes)"),
    "slide_number": _("slide number"),
    "slug": _("slug"),
    "special_categories": _("special categories of personal data"),
    "stage": _("stage"),
    "stale_since": _("stale since"),
    "started_at": _("started at"),
    "status": _("status"),
    "status_code": _("status code"),
    "sub_processors": _("sub-processors"),
    "systems": _("systems"),
    "text": _("text"),
    "thread_id": _("thread ID"),
    "transfer_mechanism": _("transfer mechanism"),
    "transfer_mechanism_wording": _("transfer mechanism (wording)"),
    "updated_at": _("updated at"),
    "uploader": _("uploader"),
    "url": _("URL"),
    "user": _("user"),
    "vendor": _("vendor"),
    "vendors": _("vendors"),
    "version": _("version"),
}


def our_models() -> list[type]:
    return [model for app in PROJECT_APPS for model in apps.get_app_config(app).get_models()]


def apply_labels() -> None:
    """Give our apps, models and fields their marked names (a field named in its model keeps it)."""
    for app_label, label in APP_LABELS.items():
        apps.get_app_config(app_label).verbose_name = label
    for model in our_models():
        meta = model._meta
        names = MODEL_LABELS.get(meta.label_lower)
        if names:
            meta.verbose_name, meta.verbose_name_plural = names
        for field in [*meta.fields, *meta.many_to_many]:
            label = FIELD_LABELS.get(field.name)
            # `_verbose_name` is what the model gave: a name given there wins.
            if label is not None and getattr(field, "_verbose_name", "") is None:
                field.verbose_name = label
