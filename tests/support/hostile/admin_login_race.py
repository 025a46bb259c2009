"""N parallel wrong-password admin logins for one user name, as the review's generator fires them.

From the review's `admin_login_race.py`: one login page read for the CSRF token and cookie,
then N threads post a wrong password each, released together by a barrier so the attempts
overlap. Returns how many answers were the form's "wrong password" error (the password was
checked) and how many were the throttle's refusal.
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
    lock = threading.Lock()

    def attempt(index: int) -> None:
        form = {
            "csrfmiddlewaretoken": found.group(1),
            "username": username,
            "password": f"wrong-{index}",
            "next": "/admin/",
        }
        barrier.wait(timeout=60)
        with httpx.Client(cookies=cookies, timeout=120) as client:
            answer = client.post(login_url, data=form, headers={"Referer": login_url})
        with lock:
            results.append("throttled" if THROTTLED_TEXT in answer.text else "checked")

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(attempts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == attempts, "an attempt failed without an answer"
    return {"checked": results.count("checked"), "throttled": results.count("throttled")}
