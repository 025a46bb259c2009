"""Bench only: one GET endpoint hammered without pause (locust headless, one process).

Environment: BENCH_PATH (the path to GET) and BENCH_API_KEY (sent as a Bearer key; the
bare views ignore it). Run by `bench_api.py`.
"""

import os

from locust import FastHttpUser, constant, task


class Reader(FastHttpUser):
    wait_time = constant(0)

    def on_start(self) -> None:
        self.path = os.environ["BENCH_PATH"]
        self.headers = {"Authorization": f"Bearer {os.environ.get('BENCH_API_KEY', '')}"}

    @task
    def read(self) -> None:
        with self.client.get(self.path, headers=self.headers, catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"HTTP {response.status_code}")
