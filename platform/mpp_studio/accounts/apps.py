from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "mpp_studio.accounts"
    label = "accounts"
    verbose_name = "Projects and members"
