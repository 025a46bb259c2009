from django.db import models

from common.background.fields import LeasedWork


class Chore(LeasedWork):
    """A piece of work with its own domain status, as every real kind has."""

    status = models.CharField(max_length=32, default="waiting")
    owner = models.CharField(max_length=32, default="acme")
