"""What a person sees of a page's layout, measured in the browser: overflow, words laid out one
letter per line, the header's reach, and colour contrast (WCAG 2.1, 1.4.3)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Locator, Page

# An element narrower than this many characters whose text runs over this many lines is a
# word laid out one letter per line (the admin index's "Data protection" links were).
NARROW_CHARACTERS = 2.5
TALL_LINES = 3

_SQUEEZED_TEXT = """
({narrow, tall}) => {
  const squeezed = [];
  for (const element of document.querySelectorAll(
      "a, th, label, button, h1, h2, h3, .button, td")) {
    const text = (element.innerText || "").trim();
    if (text.length < 4) continue;
    const box = element.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const style = getComputedStyle(element);
    if (style.visibility === "hidden") continue;
    const fontSize = parseFloat(style.fontSize);
    const lineHeight = parseFloat(style.lineHeight) || fontSize * 1.2;
    if (box.width < narrow * fontSize && box.height > tall * lineHeight) {
      squeezed.push(`${element.tagName.toLowerCase()} "${text.slice(0, 40)}" `
        + `${Math.round(box.width)}x${Math.round(box.height)} px`);
    }
  }
  return squeezed;
}
"""

_OUTSIDE_VIEWPORT = """
(selectors) => {
  const outside = [];
  for (const selector of selectors) {
    for (const element of document.querySelectorAll(selector)) {
      const box = element.getBoundingClientRect();
      if (!box.width || !box.height) continue;
      if (box.left < -1 || box.right > window.innerWidth + 1) {
        outside.push(`${selector} "${(element.innerText || "").trim().slice(0, 30)}" `
          + `${Math.round(box.left)}..${Math.round(box.right)} px`);
      }
    }
  }
  return outside;
}
"""

_COLOURS = """
(element) => {
  let background = element;
  let colour = "rgba(0, 0, 0, 0)";
  while (background) {
    colour = getComputedStyle(background).backgroundColor;
    if (!/rgba\\(.*,\\s*0\\)$/.test(colour) && colour !== "transparent") break;
    background = background.parentElement;
  }
  return {foreground: getComputedStyle(element).color, background: colour};
}
"""


def page_overflow(page: Page) -> int:
    """How many pixels the page is wider than the window (a horizontal scroll bar)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def squeezed_text(page: Page) -> list[str]:
    """Visible links, headers, labels and cells whose text is laid out a letter or two a line."""
    return list(page.evaluate(_SQUEEZED_TEXT, {"narrow": NARROW_CHARACTERS, "tall": TALL_LINES}))


def outside_viewport(page: Page, selectors: list[str]) -> list[str]:
    """The visible elements of `selectors` reaching beyond the window's left or right edge."""
    return list(page.evaluate(_OUTSIDE_VIEWPORT, selectors))


def _channel(value: float) -> float:
    value /= 255
    return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4


def _luminance(rgb: tuple[float, float, float]) -> float:
    red, green, blue = (_channel(value) for value in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _rgb(css: str) -> tuple[float, float, float]:
    numbers = [float(number) for number in re.findall(r"[\d.]+", css)[:3]]
    return numbers[0], numbers[1], numbers[2]


def contrast_ratio(foreground: str, background: str) -> float:
    """WCAG's contrast ratio of two CSS `rgb()` colours (1 to 21)."""
    lighter, darker = sorted((_luminance(_rgb(foreground)), _luminance(_rgb(background))))[::-1]
    return (lighter + 0.05) / (darker + 0.05)


def text_contrast(locator: Locator) -> float:
    """The contrast of an element's text against the first opaque background behind it."""
    colours: dict[str, Any] = locator.evaluate(_COLOURS)
    return contrast_ratio(colours["foreground"], colours["background"])
