"""WebSocket routes of reviews (added to config/websocket.py)."""

from django.urls import path

from reviews.consumers import ReviewEventsConsumer

websocket_urlpatterns = [
    path("ws/reviews/<str:review_id>/", ReviewEventsConsumer.as_asgi(), name="review-events"),
]
