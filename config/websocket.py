"""WebSocket routes; each app adds its own (authentication happens in the consumers)."""

from assets.routing import websocket_urlpatterns as asset_routes
from legal_documents.routing import websocket_urlpatterns as legal_document_routes
from reviews.routing import websocket_urlpatterns as review_routes

websocket_urlpatterns: list = [*legal_document_routes, *asset_routes, *review_routes]
