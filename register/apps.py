from django.apps import AppConfig


class RegisterConfig(AppConfig):
    name = "register"
    verbose_name = "Processing register"
