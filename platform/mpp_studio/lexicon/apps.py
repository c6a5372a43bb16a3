from django.apps import AppConfig


class LexiconConfig(AppConfig):
    name = "mpp_studio.lexicon"
    label = "lexicon"
    verbose_name = "Lexicon"
