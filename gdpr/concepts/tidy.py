"""Write every scheme file of `data/` in one layout: a concept a block, a language a line.

    python -m gdpr.concepts.tidy          # rewrite the files
    python -m gdpr.concepts.tidy --check  # exit 1 when a file is not in that layout

The layout keeps a reviewer's diff to the terms that changed.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from gdpr.concepts.vocabulary import DATA_DIR


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def tidy(data: dict[str, Any]) -> str:
    """The canonical text of one scheme file."""
    lines = ["{"]
    lines += [
        f"  {_dump(key)}: {_dump(value)}," for key, value in data.items() if key != "concepts"
    ]
    lines.append('  "concepts": [')
    blocks = []
    for concept in data["concepts"]:
        head = ", ".join(f"{_dump(k)}: {_dump(v)}" for k, v in concept.items() if k != "terms")
        terms = ",\n".join(
            f"      {_dump(language)}: {_dump(words)}"
            for language, words in concept.get("terms", {}).items()
        )
        blocks.append(f'    {{{head}, "terms": {{\n{terms}\n    }}}}')
    lines.append(",\n".join(blocks))
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    untidy = []
    for path in sorted(DATA_DIR.glob("*.json")):
        text = path.read_text(encoding="utf-8")
        wanted = tidy(json.loads(text))
        if text != wanted:
            untidy.append(path.name)
            if "--check" not in argv:
                path.write_text(wanted, encoding="utf-8")
    if untidy and "--check" in argv:
        print("not tidy (python -m gdpr.concepts.tidy):", ", ".join(untidy), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
