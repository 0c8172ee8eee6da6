"""How the director's pages speak of a table's phone: when it last reached the server and
how many hands it says wait to be sent."""

from __future__ import annotations

import datetime

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def contact_time(at: datetime.datetime) -> str:
    """The time of a phone's last contact, on the clock of the room (the site's time zone)."""
    return timezone.localtime(at).strftime("%H:%M")


def waiting(count: int) -> str:
    return ngettext("%(count)s hand waiting", "%(count)s hands waiting", count) % {"count": count}


def contact_line(at: datetime.datetime, count: int, *, now: datetime.datetime | None = None) -> str:
    """ "Phone 14:03 (2 min ago), 1 hand waiting": for a page read again every few seconds
    (`now` given); without `now` the time alone, for a page kept in a cache."""
    time = contact_time(at)
    if now is not None:
        minutes = max(0, int((now - at).total_seconds() // 60))
        if minutes:
            time = _("%(time)s (%(minutes)s min ago)") % {"time": time, "minutes": minutes}
        else:
            time = _("%(time)s (just now)") % {"time": time}
    line = _("Phone %(time)s") % {"time": time}
    if count:
        line = _("%(contact)s, %(waiting)s") % {"contact": line, "waiting": waiting(count)}
    return line
