from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournaments import accounts as tenbou_accounts
from tournaments.views import accounts

urlpatterns = [
    path("admin/", admin.site.urls),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "accounts/password/reset/",
        tenbou_accounts.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    # The language switcher in the page header posts here (Django's set_language view).
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/my-games/", accounts.my_games, name="my_games"),
    path("accounts/invitations/", accounts.invitation_list, name="invitations"),
    path(
        "accounts/invitations/<int:pk>/",
        accounts.invitation_answer,
        name="invitation_answer",
    ),
    path("", include("tournaments.urls")),
]
