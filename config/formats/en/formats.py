"""English dates as Tenbou writes them, day first ("23 November 2026", "23 Nov 2026"),
instead of Django's American defaults. Japanese uses Django's own formats (2026年11月23日).
Templates name these formats ({{ day|date:"DATE_FORMAT" }}) rather than spelling one out,
so that every language gets its own."""

from django.conf.locale.en.formats import *  # noqa: F403 (the input formats stay Django's)

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j F Y H:i"
SHORT_DATETIME_FORMAT = "j M Y H:i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
TIME_FORMAT = "H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
