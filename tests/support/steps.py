"""Counting the work a call does, in interpreter steps: a bound on CPU without a clock.

`steps_of(function, ...)` runs the call with a trace and a profile hook and counts every
Python line executed (a loop's iterations included, comprehensions too) and every function
call, built-in ones included. The count is deterministic for the same input, so a test can
say "reading a sheet padded to row 5,000 does no more work than one padded to row 50"
without timing anything (timings belong to bench/).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")


def steps_of(function: Callable[..., T], /, *args: Any, **kwargs: Any) -> tuple[T, int]:
    """The call's result and the number of lines executed and calls made while it ran."""
    count = 0

    def on_line(frame: FrameType, event: str, argument: Any) -> Any:
        nonlocal count
        count += 1
        return on_line

    def on_call(frame: FrameType, event: str, argument: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    previous_trace, previous_profile = sys.gettrace(), sys.getprofile()
    sys.settrace(on_line)
    sys.setprofile(on_call)
    try:
        result = function(*args, **kwargs)
    finally:
        sys.setprofile(previous_profile)
        sys.settrace(previous_trace)
    return result, count
