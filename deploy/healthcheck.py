"""Container health checks, kept free of Django so that they answer in milliseconds.

python deploy/healthcheck.py live         # the local web process's /livez answers 2xx
python deploy/healthcheck.py ready        # the local web process's /readyz answers 2xx
python deploy/healthcheck.py http [URL]   # 2xx from the URL (default: local /readyz)
python deploy/healthcheck.py redis        # REDIS_URL answers PING (beat's only dependency)

`live` (the process and its database) is what a liveness probe restarts a stuck web process
on; `ready` (plus Redis and a worker) gates traffic: the compose web healthcheck, since
Docker has one healthcheck and it decides whether the proxy's upstream is used.
"""

from __future__ import annotations

import os
import sys
import urllib.request


def check_http(url: str) -> None:
    # The URL is fixed by the compose file (loopback), never user input.
    with urllib.request.urlopen(url, timeout=8) as response:  # noqa: S310
        if not 200 <= response.status < 300:
            raise SystemExit(f"{url} answered {response.status}")


def check_redis() -> None:
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=5)
    client.ping()


LOCAL_WEB = "http://127.0.0.1:8000"
PROBES = {"live": f"{LOCAL_WEB}/livez", "ready": f"{LOCAL_WEB}/readyz"}


def main(argv: list[str]) -> None:
    kind = argv[0] if argv else "http"
    if kind in PROBES:
        check_http(argv[1] if len(argv) > 1 else PROBES[kind])
    elif kind == "http":
        check_http(argv[1] if len(argv) > 1 else PROBES["ready"])
    elif kind == "redis":
        check_redis()
    else:
        raise SystemExit(f"unknown check {kind!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
