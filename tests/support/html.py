"""Reading pages the service serves."""

from __future__ import annotations

from html.parser import HTMLParser


class _References(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [value for name, value in attrs if name in {"src", "href"} and value]


def references(html: str) -> list[str]:
    """Every `src` and `href` of a page, in order."""
    parser = _References()
    parser.feed(html)
    return parser.urls
