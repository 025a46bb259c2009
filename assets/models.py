"""Uploaded assets and their embedded chunks (pgvector).

An asset's files live in the storage (local or S3) under its organization's
``container_name`` prefix; the row holds their keys. Chunks carry the organization too
(denormalised), so that a search filters on one table next to the HNSW index scan.
"""

from __future__ import annotations

import uuid
from pathlib import PurePath

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.utils.translation import gettext_lazy
from pgvector.django import VectorField

from common.background.fields import LeasedWork


class AssetStatus(models.TextChoices):
    UPLOADED = "UPLOADED", gettext_lazy("Uploaded")
    PROCESSING = "PROCESSING", gettext_lazy("Processing")
    COMPLETED = "COMPLETED", gettext_lazy("Completed")
    FAILED = "FAILED", gettext_lazy("Failed")


class Asset(LeasedWork):
    """An uploaded file; its processing is leased background work (assets.work)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    organization = models.ForeignKey(
        "organizations.Organization", on_delete=models.CASCADE, related_name="assets"
    )
    uploader = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="assets",
    )
    # Storage keys: "<container_name>/assets/<id>/original.<ext>" and ".../converted.<ext>".
    original_file = models.FileField(max_length=500)
    converted_file = models.FileField(max_length=500, blank=True, default="")
    original_file_name = models.CharField(max_length=255)
    file_size = models.BigIntegerField()
    converted_size = models.BigIntegerField(null=True, blank=True)
    sha256 = models.CharField(max_length=64)
    media_type = models.CharField(max_length=120)

    status = models.CharField(
        max_length=12, choices=AssetStatus.choices, default=AssetStatus.UPLOADED, db_index=True
    )
    error_code = models.CharField(max_length=40, blank=True, default="")
    error_message = models.TextField(blank=True, default="")
    error_details = models.JSONField(null=True, blank=True)
    chunk_count = models.PositiveIntegerField(default=0)
    embedding_provider = models.CharField(max_length=120, blank=True, default="")
    # Set when pages of a scanned PDF were recognised by OCR (assets/processing/ocr.py):
    # {"applied": true, "confidence": 0.93, "languages": [...], "pages": 2}; null otherwise.
    ocr = models.JSONField(null=True, blank=True, editable=False)

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    # When the current (or last) attempt started; the lease (LeasedWork) decides who runs.
    processing_started_at = models.DateTimeField(null=True, blank=True)
    # What the current attempt is doing (assets.ingestion): an attempt abandoned while
    # reading the file (its worker died, say out of memory) fails the asset rather than
    # handing the same file to the next worker; no file is tried forever.
    processing_stage = models.CharField(max_length=12, blank=True, default="", editable=False)
    # Progress of the current attempt (assets.progress): written with each embedding batch,
    # in the transaction that stores it, so it costs no extra round trip.
    progress_chunks_done = models.PositiveIntegerField(default=0, editable=False)
    # An estimate until the last batch (known only for text formats; null otherwise).
    progress_chunks_total = models.PositiveIntegerField(null=True, blank=True, editable=False)
    progress_started_at = models.DateTimeField(null=True, blank=True, editable=False)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "sha256"], name="asset_unique_content_per_org"
            )
        ]
        indexes = [
            models.Index(fields=["organization", "status"], name="asset_org_status"),
            # The sweeper's rows (common.background): the few assets queued or leased.
            models.Index(
                fields=["lease_state"],
                condition=~models.Q(lease_state="idle"),
                name="asset_lease_active",
            ),
        ]

    def __str__(self) -> str:
        return self.original_file_name

    @property
    def converted_file_name(self) -> str:
        """The name a converted file is offered under ("budget.csv" for "budget.xlsx"), or ""
        when no conversion produced a file."""
        if not self.converted_file:
            return ""
        return (
            f"{PurePath(self.original_file_name).stem}{PurePath(self.converted_file.name).suffix}"
        )

    @property
    def file_format(self) -> str:
        """The accepted format ("pdf", "xlsx", ...) behind the stored media type."""
        from assets.processing import FileKind

        for kind in FileKind:
            if kind.media_type == self.media_type:
                return kind.value
        return "unknown"


class AssetChunk(models.Model):
    id = models.BigAutoField(primary_key=True)
    # No index of its own: the unique (asset, index) btree starts with the asset and serves
    # every lookup by asset (a cascade delete too); a second one is space and write work
    # for nothing (migration 0012_chunk_asset_index_removed).
    asset = models.ForeignKey(
        Asset, on_delete=models.CASCADE, related_name="chunks", db_index=False
    )
    # Denormalised from the asset: search filters on it without a join.
    organization = models.ForeignKey(
        "organizations.Organization",
        on_delete=models.CASCADE,
        related_name="asset_chunks",
        db_index=False,
    )
    index = models.PositiveIntegerField()
    text = models.TextField()
    # "page 3", "sheet Revenue", "slide 2", "header"... or "" when unknown.
    location = models.CharField(max_length=200, blank=True, default="")
    # The same location, structured for the API (see location_fields).
    page_number = models.PositiveIntegerField(null=True, blank=True)
    sheet_name = models.CharField(max_length=200, blank=True, default="")
    slide_number = models.PositiveIntegerField(null=True, blank=True)
    # NULL only in principle: ingestion always writes a vector, but the column is swapped
    # with ``embedding_next`` (nullable) by renaming, which keeps no NOT NULL without a scan
    # of the table under the exclusive lock.
    embedding = VectorField(dimensions=settings.EMBEDDING_DIMENSIONS, null=True)
    # The provider that computed ``embedding`` (EmbeddingProvider.name): a model change is
    # visible per chunk. ``embedding_next``/``embedding_next_model``: the vector of the model
    # a running re-embedding moves to (assets.reembedding), NULL otherwise; the two pairs of
    # columns are swapped by renaming them when every chunk has its next vector.
    embedding_model = models.CharField(max_length=120, blank=True, default="")
    embedding_next = VectorField(dimensions=settings.EMBEDDING_DIMENSIONS, null=True, blank=True)
    embedding_next_model = models.CharField(max_length=120, blank=True, default="")
    # Full-text search: the 'simple' configuration (no stemming, no stop words) because the
    # assets are in any language and names and identifiers must match as written. '<' and
    # '>' read as spaces: PostgreSQL's parser takes "<anything up to >" for an HTML tag and
    # drops its words ("<jane@example.org>", a Word field code "<< ... >>"), and typo
    # queries find only indexed words now (migration 0015).
    search_vector = models.GeneratedField(
        expression=SearchVector(
            models.Func(
                "text",
                models.Value("<>"),
                models.Value("  "),
                function="translate",
                output_field=models.TextField(),
            ),
            config="simple",
        ),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    class Meta:
        ordering = ["asset", "index"]
        constraints = [
            models.UniqueConstraint(fields=["asset", "index"], name="asset_chunk_unique_index")
        ]
        indexes = [
            # No HNSW index over every organization's vectors: a large organization has its
            # own partial one (TenantVectorIndex, assets.tenant_indexes), a small one is
            # ranked exactly over its own chunks (assets/search.py).
            # The full-text index, the organization first (btree_gin): a search reads
            # only its own organization's matches (migration 0008). Typo queries reach it
            # through ChunkWord; the chunk texts have no trigram index (migration 0014).
            GinIndex(
                name="asset_chunk_org_text_search",
                fields=["organization", "search_vector"],
                opclasses=["uuid_ops", "tsvector_ops"],
            ),
            # An organization's chunks in id order: the tail of its vector index (the chunks
            # past its watermark, ranked exactly) and its last chunk id (the next
            # watermark). A btree insert costs next to nothing beside an HNSW one. Every
            # row has id > 0, but only a query that bounds the id (``id > W``) proves it:
            # the full-text and trigram rankers, which filter by organization alone, cannot
            # read all of an organization's chunks through this index and recheck each
            # instead of using the GIN (seen as soon as it had no predicate; migration 0008).
            models.Index(
                fields=["organization", "id"],
                name="asset_chunk_org_id",
                condition=models.Q(id__gt=0),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.asset_id} #{self.index}"

    @staticmethod
    def location_fields(location: str | None) -> dict[str, object]:
        """``page_number``/``sheet_name``/``slide_number`` of an extractor's location.

        The extractors write "page N" (PDF), "sheet NAME" (XLSX) and "slide N" (PPTX);
        anything else ("header", "") has none. Migration 0003 does the same in SQL.
        """
        location = location or ""
        kind, _, rest = location.partition(" ")
        if kind in ("page", "slide") and rest.isascii() and rest.isdigit() and len(rest) < 10:
            return {f"{kind}_number": int(rest)}
        if kind == "sheet" and rest:
            return {"sheet_name": rest[:200]}
        return {}


class EmbeddingIndex(models.Model):
    """One row: the model (assets.embedding.MODELS) of ``AssetChunk.embedding``, which
    ingestion and search queries use. Changed only by a completed re-embedding (or while
    there are no chunks)."""

    SINGLETON = 1

    id = models.PositiveSmallIntegerField(primary_key=True, default=SINGLETON, editable=False)
    active_model = models.CharField(max_length=40)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.active_model


class TenantVectorIndexState(models.TextChoices):
    BUILDING = "BUILDING", "Building"
    READY = "READY", "Ready"


class TenantVectorIndex(models.Model):
    """The partial HNSW index of one large organization's vectors (assets.tenant_indexes).

    The search uses the index only once it is READY (built, valid); ``index_name`` is made
    from the organization's uuid (hex), never from anything a user typed.
    """

    organization = models.OneToOneField(
        "organizations.Organization",
        on_delete=models.CASCADE,
        related_name="vector_index",
        primary_key=True,
    )
    index_name = models.CharField(max_length=63, unique=True)
    state = models.CharField(
        max_length=10,
        choices=TenantVectorIndexState.choices,
        default=TenantVectorIndexState.BUILDING,
    )
    # The watermark: the index covers the organization's chunks with ``id`` up to this one
    # (its predicate says ``id <= indexed_through_id``); later ones, the tail, are ranked
    # exactly, so that no insert pays an HNSW insert. NULL: an index built before
    # watermarks, over every chunk of the organization (the reconcile rebuilds it with one).
    indexed_through_id = models.BigIntegerField(null=True, blank=True)
    # The organization's chunks (of COMPLETED assets) when the watermark was read: those the
    # index covers, the tail being the organization's chunks beyond them. And how long the
    # build took.
    chunks_when_built = models.PositiveIntegerField(default=0)
    build_seconds = models.FloatField(null=True, blank=True)
    built_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.index_name} ({self.state})"


class ReembedStatus(models.TextChoices):
    RUNNING = "RUNNING", "Running"
    COMPLETED = "COMPLETED", "Completed"
    CANCELLED = "CANCELLED", "Cancelled"
    FAILED = "FAILED", "Failed"


class ReembedJobQuerySet(models.QuerySet["ReembedJob"]):
    def running(self) -> ReembedJobQuerySet:
        return self.filter(status=ReembedStatus.RUNNING)


class ReembedJob(models.Model):
    """Re-embedding every chunk with ``target_model`` (assets.reembedding): batches in id
    order after ``cursor`` (committed with each batch, so a restart resumes there), then the
    stragglers, the HNSW index of the new column, and the swap."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    source_model = models.CharField(max_length=40)
    target_model = models.CharField(max_length=40)
    status = models.CharField(
        max_length=10, choices=ReembedStatus.choices, default=ReembedStatus.RUNNING
    )
    # embedding | catching-up | indexing | swapping | done
    phase = models.CharField(max_length=12, default="embedding")
    batch_size = models.PositiveIntegerField(default=64)
    cursor = models.BigIntegerField(default=0)
    chunks_done = models.PositiveIntegerField(default=0)
    batches_done = models.PositiveIntegerField(default=0)
    chunks_total = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # When the new vectors became the active ones.
    swapped_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True, default="")

    objects = ReembedJobQuerySet.as_manager()

    class Meta:
        constraints = [
            # At most one re-embedding at a time: there is one ``embedding_next`` column.
            models.UniqueConstraint(
                fields=["status"],
                condition=models.Q(status="RUNNING"),
                name="reembed_job_one_running",
            )
        ]

    def __str__(self) -> str:
        return f"{self.source_model} -> {self.target_model} ({self.status})"


class ChunkWord(models.Model):
    """A distinct word (a full-text lexeme of ``search_vector``) of an organization's chunks.

    pg_trgm's "Text Search Integration": a typo or a word inside a longer one (a Korean
    noun before its particle) finds its similar words here through the trigram index,
    then the full-text index finds the chunks holding them (assets.search, the trigram
    ranker); no chunk text is rechecked. Filled in the database by a statement-level
    trigger on the chunk table (migration 0014), so that COPY and INSERT alike fill it.

    Never emptied as chunks go: a word whose chunks were all deleted stays and only
    proposes a word no chunk holds, which the full-text index answers with nothing. The
    organization's deletion removes its words (CASCADE).
    """

    # The word first: the organization's words are looked for through the trigram index
    # (organization and trigrams in one scan); listing them all through this one would take
    # a skip scan, which the planner costs above it.
    pk = models.CompositePrimaryKey("word", "organization")
    organization = models.ForeignKey(
        "organizations.Organization", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    word = models.TextField()

    class Meta:
        indexes = [
            # The organization first (btree_gin): a typo is compared with its own
            # organization's words only. No pending list (fastupdate): every search would
            # read it through, and the planner, costing it, read all of an organization's
            # words through the primary key instead; new words are few once an
            # organization's vocabulary is known.
            GinIndex(
                name="chunk_word_org_trigram",
                fields=["organization", "word"],
                opclasses=["uuid_ops", "gin_trgm_ops"],
                fastupdate=False,
            ),
        ]

    def __str__(self) -> str:
        return self.word
