"""The login race helper survives a dropped connection: the live server's listen queue holds
10, and 30 simultaneous connections can be reset under load (seen once in CI)."""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator

import pytest

from tests.support.hostile.admin_login_race import race_wrong_logins

LOGIN_PAGE = (
    b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\nContent-Length: %d\r\n\r\n"
)
FORM = b'<input type="hidden" name="csrfmiddlewaretoken" value="token">'
REFUSAL = b"Too many failed logins"


@pytest.fixture
def server_that_resets_its_first_post() -> Iterator[str]:
    """A loopback HTTP server answering every request, except that it resets the first POST."""
    listener = socket.create_server(("127.0.0.1", 0), backlog=64)
    resets_left = [1]
    lock = threading.Lock()

    def answer(connection: socket.socket) -> None:
        with connection:
            request = connection.recv(65536)
            with lock:
                reset = request.startswith(b"POST") and resets_left[0] > 0
                resets_left[0] -= int(reset)
            if reset:  # SO_LINGER 0: close() sends a RST, as an overflowing queue can
                connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                return
            body = FORM if request.startswith(b"GET") else REFUSAL
            connection.sendall(LOGIN_PAGE % len(body) + body)

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=answer, args=(connection,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()


def test_a_reset_connection_is_tried_again_and_every_attempt_gets_an_answer(
    server_that_resets_its_first_post,
):
    answers = race_wrong_logins(
        base_url=server_that_resets_its_first_post, username="alice@example.com", attempts=5
    )
    assert answers == {"checked": 0, "throttled": 5}
