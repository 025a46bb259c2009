"""WebSocket routes; each app adds its own (authentication happens in the consumers)."""

websocket_urlpatterns: list = []
