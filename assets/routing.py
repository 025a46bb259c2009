"""WebSocket routes of assets (added to config/websocket.py)."""

from django.urls import path

from assets.consumers import AssetEventsConsumer

websocket_urlpatterns = [
    path("ws/assets/", AssetEventsConsumer.as_asgi(), name="asset-events"),
]
