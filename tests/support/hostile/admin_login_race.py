"""N parallel wrong-password admin logins for one user name, as the review's generator fires them.

From the review's `admin_login_race.py`: one login page read for the CSRF token and cookie,
then N threads post a wrong password each, released together by a barrier so the attempts
overlap. Returns how many answers were the form's "wrong password" error (the password was
checked) and how many were the throttle's refusal.

A connection the server's listen queue dropped (Django's live server queues 10) is tried again:
the race is about the throttle, not the backlog, and an extra attempt only makes the limit
harder to keep.
"""

from __future__ import annotations

import re
import threading

import httpx

THROTTLED_TEXT = "Too many failed logins"


def race_wrong_logins(*, base_url: str, username: str, attempts: int) -> dict[str, int]:
    """Post `attempts` wrong passwords for `username` at once; {"checked": n, "throttled": m}."""
    login_url = f"{base_url.rstrip('/')}/admin/login/"
    page = httpx.get(login_url, timeout=60)
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert found, "no CSRF token on the login page"
    cookies = dict(page.cookies)
    barrier = threading.Barrier(attempts)
    results: list[str] = []
    failures: list[str] = []
    lock = threading.Lock()

    def attempt(index: int) -> None:
        form = {
            "csrfmiddlewaretoken": found.group(1),
            "username": username,
            "password": f"wrong-{index}",
            "next": "/admin/",
        }
        barrier.wait(timeout=60)
        try:
            answer = post_with_retries(login_url, form, cookies)
        except Exception as error:  # a thread's error is otherwise lost
            with lock:
                failures.append(repr(error))
            return
        with lock:
            results.append("throttled" if THROTTLED_TEXT in answer.text else "checked")

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(attempts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == attempts, f"attempts failed without an answer: {failures}"
    return {"checked": results.count("checked"), "throttled": results.count("throttled")}


def post_with_retries(
    url: str, form: dict[str, str], cookies: dict[str, str], tries: int = 3
) -> httpx.Response:
    """POST the form, trying again when the connection is refused, reset or dropped."""
    for attempt_number in range(1, tries + 1):
        try:
            with httpx.Client(cookies=cookies, timeout=120) as client:
                return client.post(url, data=form, headers={"Referer": url})
        except httpx.TransportError:
            if attempt_number == tries:
                raise
    raise AssertionError("unreachable")
