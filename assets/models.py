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
from pgvector.django import HnswIndex, VectorField


class AssetStatus(models.TextChoices):
    UPLOADED = "UPLOADED", "Uploaded"
    PROCESSING = "PROCESSING", "Processing"
    COMPLETED = "COMPLETED", "Completed"
    FAILED = "FAILED", "Failed"


class Asset(models.Model):
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

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    processing_started_at = models.DateTimeField(null=True, blank=True)
    # A fresh token per processing attempt (assets.ingestion): an attempt writes its results
    # only while the row still holds its token, so a redelivered or superseded run cannot
    # overwrite or delete the chunks of the attempt that took over from it.
    processing_token = models.UUIDField(null=True, blank=True, editable=False)
    # Claims so far, and what the current attempt is doing (assets.ingestion): an attempt
    # abandoned while reading the file (its worker died, say out of memory) fails the asset
    # rather than handing the same file to the next worker; no file is tried forever.
    processing_attempts = models.PositiveSmallIntegerField(default=0, editable=False)
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
        indexes = [models.Index(fields=["organization", "status"], name="asset_org_status")]

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
    asset = models.ForeignKey(Asset, on_delete=models.CASCADE, related_name="chunks")
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
    embedding = VectorField(dimensions=settings.EMBEDDING_DIMENSIONS)
    # Full-text search: the 'simple' configuration (no stemming, no stop words) because the
    # assets are in any language and names and identifiers must match as written.
    search_vector = models.GeneratedField(
        expression=SearchVector("text", config="simple"),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    class Meta:
        ordering = ["asset", "index"]
        constraints = [
            models.UniqueConstraint(fields=["asset", "index"], name="asset_chunk_unique_index")
        ]
        indexes = [
            HnswIndex(
                name="asset_chunk_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
            GinIndex(name="asset_chunk_search_vector", fields=["search_vector"]),
            # The organization first (btree_gin): a search rechecks only its own candidates.
            GinIndex(
                name="asset_chunk_org_text_trigram",
                fields=["organization", "text"],
                opclasses=["uuid_ops", "gin_trgm_ops"],
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
