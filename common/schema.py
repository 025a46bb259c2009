"""OpenAPI tweaks so that the schema shows the paths exactly as docs/API.md writes them."""


def canonical_api_paths(endpoints):  # type: ignore[no-untyped-def]
    """Keep /api/v1 paths once (the unprefixed aliases behave the same), without the
    optional trailing slash the router also accepts."""
    canonical = []
    for path, path_regex, method, callback in endpoints:
        if not path.startswith("/api/v1/"):
            continue
        canonical.append((path.rstrip("/") or "/", path_regex, method, callback))
    return canonical
