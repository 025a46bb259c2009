"""Print a document composed in a language, to read a translation in context.

python -m gdpr.i18n.preview de DPIA          # the OpenAPI example inputs
python -m gdpr.i18n.preview fr PRIVACY_POLICY --empty   # every marker and gap text
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime

import gdpr
from gdpr.doctypes.examples import EXAMPLES


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    language, name = argv[0], argv[1].upper()
    inputs = {} if "--empty" in argv else EXAMPLES[name]
    print(
        gdpr.compose(
            document_type=gdpr.get_document_type(name),
            inputs=inputs,
            now=datetime(2026, 3, 2, 12, 0, tzinfo=UTC),
            language=language,
        ),
        end="",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
