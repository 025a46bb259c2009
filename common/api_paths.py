"""Which URLs belong to the API: they answer in JSON, errors included."""

API_ROOTS = (
    "/api/",
    "/legal-documents",
    "/assets",
    "/client-companies",
    "/audit-events",
    "/webhooks",
    "/documentation-index",
    "/documentation-packages",
)


def is_api_path(path: str) -> bool:
    return path.startswith(API_ROOTS)
