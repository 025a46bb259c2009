from rest_framework.routers import SimpleRouter


class ApiRouter(SimpleRouter):
    """docs/API.md writes paths without a trailing slash; accept both, never redirect."""

    def __init__(self) -> None:
        super().__init__()
        self.trailing_slash = "/?"
