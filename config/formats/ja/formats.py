"""Japanese dates as Django writes them (2026年11月23日), with the short date written the
same way, so that tables and date ranges read as Japanese dates too."""

from django.conf.locale.ja.formats import *  # noqa: F403

SHORT_DATE_FORMAT = "Y年n月j日"
