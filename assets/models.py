"""Models of assets."""
