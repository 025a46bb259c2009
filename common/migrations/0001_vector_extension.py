"""pgvector must exist before the first VectorField (assets) is created."""

from django.db import migrations
from pgvector.django import VectorExtension


class Migration(migrations.Migration):
    initial = True
    dependencies: list = []
    operations = [VectorExtension()]
