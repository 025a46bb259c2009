"""Crafted hostile files for regression tests, generated in the test and scaled down.

Each module copies what its tests need from the review's generators (stdlib only); nothing
here reads any file outside the repository.
"""
