"""App configuration for paytables."""

from django.apps import AppConfig


class PaytablesConfig(AppConfig):
    name = "paytables"
    default_auto_field = "django.db.models.BigAutoField"
