#!/usr/bin/env python
"""Django's command-line utility.

With the local settings (config.settings.base or .test) and no DATABASE_URL / REDIS_URL, it
first starts (or reuses) the embedded servers under DATA_DIR (config/local_stack.py): a
`manage.py shell` in a second terminal reaches the servers of a running `make run`.
"""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    from config import local_stack

    local_stack.prepare_for(os.environ["DJANGO_SETTINGS_MODULE"])
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
