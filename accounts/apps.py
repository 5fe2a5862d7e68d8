"""App configuration for accounts: sign-in throttling (django-axes) and hashed, expiring API tokens (knox)."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from axes.signals import user_locked_out

        from accounts import openapi, throttle  # noqa: F401 (openapi registers the token scheme)

        user_locked_out.connect(throttle.on_user_locked_out, dispatch_uid="accounts_lockout_audit")
