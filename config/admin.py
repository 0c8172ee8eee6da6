"""The admin is for superusers only.

Every organiser task has its own page (events, organisers, rules, sessions, games,
players' logins), which checks that the user organises that event. The admin checks
model permissions, not events, so a staff account there could open and change any
organiser's private event; it is therefore closed to everyone but superusers.
"""

from django.contrib import admin


class SuperuserAdminSite(admin.AdminSite):
    site_header = "Tenbou administration"
    site_title = "Tenbou administration"

    def has_permission(self, request) -> bool:
        return request.user.is_active and request.user.is_superuser
