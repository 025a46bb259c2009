"""Generators of crafted files for the hostile-input tests (copies of the review's, scaled)."""
