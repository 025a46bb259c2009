"""Generators of crafted files for the hostile-input tests (scaled-down copies of ../shared/hostile)."""
