"""The "Auditors" group: view-only permissions on everything a DPO works with."""

from django.db import migrations

GROUP_NAME = "Auditors"
VIEWED_APPS = ("organizations", "audit", "legal_documents", "assets")


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally created after all migrations; the group needs them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, verbosity=0, apps=apps)
        app_config.models_module = None
    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")
    group, _ = group_model.objects.get_or_create(name=GROUP_NAME)
    group.permissions.set(
        permission_model.objects.filter(
            content_type__app_label__in=VIEWED_APPS, codename__startswith="view_"
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("organizations", "0001_initial"),
        ("audit", "0002_append_only_trigger"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(create_group, migrations.RunPython.noop)]
