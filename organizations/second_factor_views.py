"""The admin's second-factor pages: verification after the password, enrolment (the QR code,
drawn here as SVG, and the secret as text), and the recovery codes.

Both pages are open to a session that has only passed the password (organizations/admin_site.py
routes it here), to active staff only. Codes are limited like passwords: each attempt is
reserved in the login's budgets per (address, member) and per address before it is checked
(organizations/admin_login.py), and each device delays the next try after a failure
(django-otp's throttling), so neither many addresses nor one can guess a code.
"""

from __future__ import annotations

import logging
import math
from base64 import b32encode
from typing import Any
from urllib.parse import urlencode

import django_otp
import redis
import segno
from django import forms
from django.contrib.admin import AdminSite
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy
from django_otp.models import Device

from organizations import second_factor
from organizations.admin_login import attempt_succeeded, reserve_attempt
from organizations.admin_scoping import admin_actor

logger = logging.getLogger(__name__)


class CodeForm(forms.Form):
    token = forms.CharField(
        label=gettext_lazy("Code"),
        max_length=32,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "autofocus": True}),
    )


def _next_url(request: HttpRequest, site: AdminSite) -> str:
    candidate = request.POST.get(REDIRECT_FIELD_NAME) or request.GET.get(REDIRECT_FIELD_NAME)
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return reverse("admin:index", current_app=site.name)


def _with_next(url: str, next_url: str) -> str:
    return f"{url}?{urlencode({REDIRECT_FIELD_NAME: next_url})}"


def _is_staff(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_authenticated and user.is_active and user.is_staff)


def _context(request: HttpRequest, site: AdminSite, **extra: Any) -> dict[str, Any]:
    context = site.each_context(request)
    if not site.has_permission(request):
        context["available_apps"] = []  # no model names before the second factor
    return {**context, "next": _next_url(request, site), **extra}


def _budget_name(request: HttpRequest) -> str:
    # Its own (address, member) budget, apart from the password's; the address budget is shared.
    return f"second-factor:{request.user.pk}"


def _reserve(request: HttpRequest) -> float:
    """Seconds to wait before a code may be checked (0: checked now)."""
    try:
        return reserve_attempt(username=_budget_name(request), address=_address(request))
    except redis.RedisError:  # like the password step: the form works without Redis
        logger.warning("could not reserve a second-factor attempt", exc_info=True)
        return 0


def _succeeded(request: HttpRequest) -> None:
    try:
        attempt_succeeded(username=_budget_name(request), address=_address(request))
    except redis.RedisError:
        logger.warning("could not clear the second-factor attempts", exc_info=True)


def _address(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR") or "unknown"


def _throttled(form: CodeForm, wait: float) -> None:
    form.add_error(
        None,
        gettext("Too many wrong codes. Try again in %(minutes)s minutes.")
        % {"minutes": max(1, math.ceil(wait / 60))},
    )


def _verified(request: HttpRequest, device: Device) -> None:
    # A new session key for the session that now holds more rights (as at the password step).
    request.session.cycle_key()
    django_otp.login(request, device)


def verify_view(site: AdminSite, request: HttpRequest) -> HttpResponse:
    """The code of the authenticator app (or a recovery code) after the password."""
    if not _is_staff(request):
        return redirect_to_login(request.get_full_path(), reverse("admin:login"))
    next_url = _next_url(request, site)
    user = request.user
    if site.has_permission(request):
        return HttpResponseRedirect(next_url)
    if not second_factor.has_second_factor(user=user):
        return HttpResponseRedirect(_with_next(reverse("admin:second_factor"), next_url))
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        wait = _reserve(request)
        if wait:
            _throttled(form, wait)
        else:
            device = second_factor.second_factor_verify(
                user=user, token=form.cleaned_data["token"], actor=admin_actor(request)
            )
            if device is not None:
                _succeeded(request)
                _verified(request, device)
                return HttpResponseRedirect(next_url)
            form.add_error("token", gettext("This code is not valid. Try the current one."))
    context = _context(request, site, form=form, title=gettext("Two-factor authentication"))
    return render(request, "admin/second_factor/verify.html", context)


def _qr_code_svg(config_url: str) -> str:
    """The otpauth:// address as an inline SVG QR code (drawn here: nothing is fetched)."""
    svg: str = segno.make(config_url, error="m").svg_inline(scale=5, border=2)
    return mark_safe(svg)  # noqa: S308 - segno's own markup of our own address


def _grouped_secret(device: Any) -> str:
    secret = b32encode(device.bin_key).decode()
    return " ".join(secret[index : index + 4] for index in range(0, len(secret), 4))


def second_factor_view(site: AdminSite, request: HttpRequest) -> HttpResponse:
    """Enrolment (no app yet) or, verified, the state of the member's second factor and new
    recovery codes. Recovery codes are shown once, on the page that creates them."""
    if not _is_staff(request):
        return redirect_to_login(request.get_full_path(), reverse("admin:login"))
    user = request.user
    next_url = _next_url(request, site)
    title = gettext("Two-factor authentication")
    if second_factor.has_second_factor(user=user):
        if not second_factor.session_verified(user=user, session=request.session):
            return HttpResponseRedirect(_with_next(reverse("admin:second_factor_verify"), next_url))
        if request.method == "POST" and "regenerate" in request.POST:
            codes = second_factor.recovery_codes_regenerate(user=user, actor=admin_actor(request))
            context = _context(request, site, codes=codes, title=title)
            return render(request, "admin/second_factor/recovery_codes.html", context)
        context = _context(
            request,
            site,
            title=title,
            required=second_factor.second_factor_required(user=user),
            codes_left=second_factor.recovery_codes_left(user=user),
        )
        return render(request, "admin/second_factor/manage.html", context)
    device = second_factor.enrolment_device(user=user)
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        wait = _reserve(request)
        if wait:
            _throttled(form, wait)
        else:
            try:
                device, codes = second_factor.enrolment_confirm(
                    user=user, token=form.cleaned_data["token"], actor=admin_actor(request)
                )
            except ValueError:
                form.add_error("token", gettext("This code is not valid. Try the current one."))
            else:
                _succeeded(request)
                _verified(request, device)
                context = _context(request, site, codes=codes, title=title, enrolled=True)
                return render(request, "admin/second_factor/recovery_codes.html", context)
    context = _context(
        request,
        site,
        form=form,
        title=title,
        required=second_factor.second_factor_required(user=user),
        qr_code=_qr_code_svg(device.config_url),
        secret=_grouped_secret(device),
    )
    return render(request, "admin/second_factor/enrol.html", context)
