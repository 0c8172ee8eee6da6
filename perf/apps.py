from django.apps import AppConfig


class PerfConfig(AppConfig):
    name = "perf"
    verbose_name = "Performance tools (development only)"
