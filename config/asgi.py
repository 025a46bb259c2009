"""ASGI entry point: HTTP through Django, WebSocket through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
# Django must be set up before anything imports models (the WebSocket routes do).
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from assets.asgi import RequestBodyLimit  # noqa: E402
from config.websocket import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        # Oversized bodies (uploads: ASSET_MAX_UPLOAD_BYTES, the rest: MAX_REQUEST_BODY_BYTES)
        # are refused before Django reads (and DRF parses) them.
        "http": RequestBodyLimit(django_application),
        # The session (cookie) is one of the WebSocket credentials; API keys are read by the
        # consumers themselves.
        "websocket": AuthMiddlewareStack(URLRouter(websocket_urlpatterns)),
    }
)
