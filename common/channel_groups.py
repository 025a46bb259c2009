"""Sending to a channel-layer group from synchronous code (web requests, Celery workers).

One event loop per process: channels-redis keeps its connections per loop, and a loop made
and closed per message gives "Event loop is closed" (docs/PITFALLS.md, Channels and Celery).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

_loop_lock = threading.RLock()
_loop: asyncio.AbstractEventLoop | None = None


def _process_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _loop_lock:
        if _loop is None or _loop.is_closed():
            _loop = asyncio.new_event_loop()
        return _loop


def organization_events_group(organization_id: Any) -> str:
    """The group of an organization's event socket (`/ws/assets/`): its assets' statuses and
    its register imports' statuses."""
    return f"assets.organization.{organization_id}"


def send_to_group(group: str, message: dict[str, Any]) -> None:
    """Send `message` to `group`; raises what the layer raises (callers decide if it matters).

    Without a configured channel layer nothing is sent.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        with _loop_lock:
            _process_loop().run_until_complete(layer.group_send(group, message))
    else:  # called from async code: hand over to a thread with its own loop
        from asgiref.sync import async_to_sync

        async_to_sync(layer.group_send)(group, message)
