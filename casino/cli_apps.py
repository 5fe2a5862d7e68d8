"""App configurations for command-line tools that read files only: the app's commands without its models."""

from django.apps import AppConfig


class PaytableCommandsConfig(AppConfig):
    """The paytables app's management commands, without importing its models (nor auth's, which they need).

    `analyze_paytable FILE` never touches the database; loading the models would cost a third of its start-up.
    """

    name = "paytables"
    label = "paytables"
    default_auto_field = "django.db.models.BigAutoField"

    def import_models(self) -> None:
        assert self.apps is not None  # set by the registry before it imports models
        self.models = self.apps.all_models[self.label]  # registered lazily if anything ever imports them
