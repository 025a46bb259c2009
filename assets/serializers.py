"""API shapes of assets (camelCase, docs/API.md "Assets")."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from assets.models import Asset, AssetStatus
from assets.progress import STAGES, Progress, asset_progress
from assets.search import MAX_QUERY_CHARACTERS, SearchMode
from assets.selectors import MAX_SEARCH_RESULTS
from common.serializers import OmitEmptyFieldsSerializer

FIND_RESPONSE_SEED_FIELDS = [
    "id", "originalFileUrl", "originalFileName", "convertedFileUrl", "convertedFileName",
    "status", "containerName",
]  # fmt: skip
BEYOND_THE_SEED_FIELDS = [
    "fileSize", "mediaType", "sha256", "convertedSize", "chunkCount", "embeddingProvider",
    "ocr", "error", "progress", "createdAt", "updatedAt", "completedAt",
]  # fmt: skip
# What an asset whose pages were all read as text says of OCR.
NO_OCR = {"applied": False, "confidence": None, "languages": [], "pages": 0}


class AssetErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.JSONField(allow_null=True)


class AssetOcrSerializer(serializers.Serializer):
    """Whether pages of a scanned PDF were recognised by OCR (docs/ASSETS.md)."""

    applied = serializers.BooleanField()
    confidence = serializers.FloatField(
        allow_null=True,
        help_text="Tesseract's mean word confidence over the recognised words, 0-1; null "
        "when OCR was not applied.",
    )
    languages = serializers.ListField(
        child=serializers.CharField(), help_text="Tesseract's languages (eng, deu, ...)."
    )
    pages = serializers.IntegerField(help_text="The pages recognised.")


class AssetProgressSerializer(serializers.Serializer):
    """How far the ingestion has come (assets.progress); null unless PROCESSING or COMPLETED."""

    stage = serializers.ChoiceField(choices=list(STAGES))
    chunksTotal = serializers.IntegerField(  # noqa: N815
        allow_null=True, help_text="An estimate while chunks stream; null when unknown."
    )
    chunksDone = serializers.IntegerField()  # noqa: N815
    percent = serializers.IntegerField(allow_null=True, help_text="0-99 while processing.")
    etaSeconds = serializers.IntegerField(  # noqa: N815
        allow_null=True, help_text="From the time spent per chunk so far."
    )


class AssetSerializer(OmitEmptyFieldsSerializer, serializers.ModelSerializer):
    """The find response (docs/SEED.md): no organizationId, no dpoUserId.

    `convertedFileUrl` and `convertedFileName` are absent unless a conversion produced a
    file (XLSX to CSV, HTML to text). The URLs are this service's download endpoint
    (authenticated, the organization's own assets only), never a raw storage URL.
    """

    omitted_when_empty = ("convertedFileUrl", "convertedFileName")

    originalFileUrl = serializers.SerializerMethodField()  # noqa: N815
    originalFileName = serializers.CharField(source="original_file_name")  # noqa: N815
    convertedFileUrl = serializers.SerializerMethodField()  # noqa: N815
    convertedFileName = serializers.CharField(source="converted_file_name")  # noqa: N815
    containerName = serializers.CharField(source="organization.container_name")  # noqa: N815
    fileSize = serializers.IntegerField(source="file_size")  # noqa: N815
    mediaType = serializers.CharField(source="media_type")  # noqa: N815
    convertedSize = serializers.IntegerField(source="converted_size", allow_null=True)  # noqa: N815
    chunkCount = serializers.IntegerField(source="chunk_count")  # noqa: N815
    embeddingProvider = serializers.CharField(source="embedding_provider")  # noqa: N815
    ocr = serializers.SerializerMethodField()
    error = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField()
    createdAt = serializers.DateTimeField(source="created_at")  # noqa: N815
    updatedAt = serializers.DateTimeField(source="updated_at")  # noqa: N815
    completedAt = serializers.DateTimeField(source="completed_at", allow_null=True)  # noqa: N815

    class Meta:
        model = Asset
        fields = [*FIND_RESPONSE_SEED_FIELDS, *BEYOND_THE_SEED_FIELDS]
        read_only_fields = fields

    @extend_schema_field(AssetOcrSerializer())
    def get_ocr(self, asset: Asset) -> dict[str, Any]:
        return {**NO_OCR, **(asset.ocr or {})}

    @extend_schema_field(AssetErrorSerializer(allow_null=True))
    def get_error(self, asset: Asset) -> dict[str, Any] | None:
        if asset.status != AssetStatus.FAILED:
            return None
        return {
            "code": asset.error_code or "EXTRACTION_FAILED",
            "message": asset.error_message,
            "details": asset.error_details,
        }

    @extend_schema_field(AssetProgressSerializer(allow_null=True))
    def get_progress(self, asset: Asset) -> Progress | None:
        return asset_progress(asset)

    @extend_schema_field(serializers.URLField())
    def get_originalFileUrl(self, asset: Asset) -> str:  # noqa: N802
        return self._download_url(asset, converted=False)

    @extend_schema_field(serializers.URLField())
    def get_convertedFileUrl(self, asset: Asset) -> str | None:  # noqa: N802
        return self._download_url(asset, converted=True) if asset.converted_file else None

    def _download_url(self, asset: Asset, *, converted: bool) -> str:
        path = reverse("asset-download", kwargs={"pk": asset.pk})
        if converted:
            path += "?file=converted"
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class AssetUploadSerializer(AssetSerializer):
    """The upload response (docs/SEED.md): the find response, plus `organizationId` and
    `dpoUserId`; ``duplicate`` is true when the content was already uploaded."""

    organizationId = serializers.CharField(source="organization_id")  # noqa: N815
    dpoUserId = serializers.SerializerMethodField()  # noqa: N815
    duplicate = serializers.SerializerMethodField()

    class Meta(AssetSerializer.Meta):
        fields = [
            *FIND_RESPONSE_SEED_FIELDS, "organizationId", "dpoUserId", *BEYOND_THE_SEED_FIELDS,
            "duplicate",
        ]  # fmt: skip
        read_only_fields = fields

    def get_dpoUserId(self, asset: Asset) -> str:  # noqa: N802
        # The uploader on record; the caller when that account is gone (a duplicate upload).
        uploader_id = asset.uploader_id or self.context["request"].user.pk
        return str(uploader_id)

    def get_duplicate(self, asset: Asset) -> bool:
        return bool(self.context.get("duplicate", False))


class AssetListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=AssetStatus.values, required=False)


class AssetSearchQuerySerializer(serializers.Serializer):
    q = serializers.CharField(
        max_length=MAX_QUERY_CHARACTERS,
        trim_whitespace=True,
        help_text=f"Words, as on a web search engine (quotes for a phrase, `or`, `-` to "
        f"exclude); at most {MAX_QUERY_CHARACTERS:,} characters. Only the first "
        f"{settings.SEARCH_MAX_TERMS} words are searched for by the full-text and trigram "
        "rankers and marked in snippets (a word with other characters than letters and "
        "digits, such as `e-mail` or `-draft`, counts two per part plus one); the words "
        "after them are ignored (the vector ranker reads the whole text).",
    )
    k = serializers.IntegerField(min_value=1, max_value=MAX_SEARCH_RESULTS, default=10)
    mode = serializers.ChoiceField(
        choices=[mode.value for mode in SearchMode],
        default=SearchMode.HYBRID.value,
        help_text="hybrid: meaning (vector), words (full-text) and names or identifiers "
        "(trigram) fused by reciprocal rank; vector: meaning only; text: words and "
        "trigrams only (no embedding).",
    )


class SearchHitSerializer(serializers.Serializer):
    assetId = serializers.UUIDField(source="asset_id")  # noqa: N815
    originalFileName = serializers.CharField(source="original_file_name")  # noqa: N815
    chunkIndex = serializers.IntegerField(source="chunk_index")  # noqa: N815
    text = serializers.CharField()
    location = serializers.CharField()
    score = serializers.FloatField(
        help_text="Higher is better: the cosine similarity in vector mode, otherwise the "
        "reciprocal-rank-fusion sum (1/(60+rank) per ranker that found the chunk)."
    )
    rankers = serializers.ListField(
        child=serializers.ChoiceField(choices=["vector", "text", "trigram"]),
        help_text="The rankers that found this chunk among their best candidates.",
    )
    pageNumber = serializers.IntegerField(source="page_number", allow_null=True)  # noqa: N815
    sheetName = serializers.CharField(source="sheet_name", allow_null=True)  # noqa: N815
    slideNumber = serializers.IntegerField(source="slide_number", allow_null=True)  # noqa: N815
    snippet = serializers.CharField(
        help_text="HTML: an escaped excerpt of the text with the query's words in <mark>."
    )


class SearchResponseSerializer(serializers.Serializer):
    results = SearchHitSerializer(many=True)


class AssetUploadRequestSerializer(serializers.Serializer):
    """Schema only: the multipart body of an upload."""

    file = serializers.FileField()
