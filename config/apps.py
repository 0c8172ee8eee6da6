from django.contrib.admin.apps import AdminConfig


class TenbouAdminConfig(AdminConfig):
    default_site = "config.admin.SuperuserAdminSite"
