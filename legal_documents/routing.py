"""WebSocket routes of legal documents (added to config/websocket.py)."""

from django.urls import path

from legal_documents.consumers import DocumentEventsConsumer

websocket_urlpatterns = [
    path(
        "ws/legal-documents/<str:document_id>/",
        DocumentEventsConsumer.as_asgi(),
        name="legal-document-events",
    ),
]
