"""The failures of asset processing that are not the file's format (formats.errors has
those: InvalidFileType, ExtractionFailed, ConversionFailed). Nothing here imports Django.
"""

from __future__ import annotations

from formats.errors import FormatError

# The base of every failure of reading an uploaded file, by the name the assets code uses.
AssetProcessingError = FormatError


class EmbeddingProviderUnavailable(RuntimeError):  # noqa: N818 - reads better as a state
    """An embedding provider is unknown or its optional dependencies are not installed.

    A deployment error, not a user error: raised when the provider is built, so a worker
    with a broken configuration fails at start-up rather than on the first upload.
    """
