"""The admin site: Django's, closed to a session that owes a second factor.

`has_permission` is what every admin page asks (each ModelAdmin view, the index, the app
pages, the pages other apps add with `admin_view`), so checking the second factor there
closes all of them at once, not only the ones someone remembered. A member who logged in
with their password but owes a second factor (organizations/second_factor.py) is sent from
the login page to verification, or to enrolment on their first visit; the logout stays open
to them. Installed as `admin.site` by SecondFactorAdminConfig (organizations/apps.py).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import admin
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, URLResolver, path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect

from organizations.admin_login import ThrottledAdminAuthenticationForm
from organizations.second_factor import second_factor_needed, session_verified

_PASSED = "_second_factor_passed"


def second_factor_passed(request: HttpRequest) -> bool:
    """Whether the logged-in user's session may use the admin as far as the second factor
    goes (remembered for the request: the admin asks many times per page)."""
    user = request.user
    remembered = getattr(request, _PASSED, None)
    if remembered is not None and remembered[0] == user.pk:
        return bool(remembered[1])
    # OTPMiddleware's answer when it ran on this user; right after the password step the
    # request's user is the freshly logged-in one, which only the session tells about.
    verified = user.is_verified() if hasattr(user, "is_verified") else False
    passed = (
        verified
        or session_verified(user=user, session=request.session)
        or not second_factor_needed(user=user)
    )
    setattr(request, _PASSED, (user.pk, passed))
    return passed


class SecondFactorAdminSite(admin.AdminSite):
    login_form = ThrottledAdminAuthenticationForm  # organizations/admin_login.py

    def has_permission(self, request: HttpRequest) -> bool:
        return super().has_permission(request) and second_factor_passed(request)

    def owes_second_factor(self, request: HttpRequest) -> bool:
        """Logged in as active staff with the password, the second factor still to give."""
        return super().has_permission(request) and not second_factor_passed(request)

    def second_factor_redirect(self, request: HttpRequest, *, next_url: str) -> HttpResponse:
        query = urlencode({REDIRECT_FIELD_NAME: next_url})
        target = reverse("admin:second_factor_verify", current_app=self.name)
        return HttpResponseRedirect(f"{target}?{query}")

    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> Any:
        index = reverse("admin:index", current_app=self.name)
        if request.method == "GET" and self.owes_second_factor(request):
            return self.second_factor_redirect(
                request, next_url=request.GET.get(REDIRECT_FIELD_NAME) or index
            )
        response = super().login(request, extra_context)
        # The password was right: straight on to the second factor, not through the page.
        passed_password = request.method == "POST" and response.status_code == 302
        if passed_password and self.owes_second_factor(request):
            return self.second_factor_redirect(request, next_url=response["Location"])
        return response

    def get_urls(self) -> list[URLPattern | URLResolver]:
        from organizations import second_factor_views as views

        def unverified(view: Any) -> Any:
            # Open to a password-only session (the views check staff themselves).
            def page(request: HttpRequest) -> HttpResponse:
                return view(self, request)

            return csrf_protect(never_cache(page))

        own = [
            path("second-factor/", unverified(views.second_factor_view), name="second_factor"),
            path(
                "second-factor/verify/",
                unverified(views.verify_view),
                name="second_factor_verify",
            ),
            # Logging out must not need the second factor (admin_view would refuse it).
            path("logout/", csrf_protect(never_cache(self.logout)), name="logout"),
        ]
        django = [url for url in super().get_urls() if getattr(url, "name", None) != "logout"]
        return [*own, *django]
