"""The SSRF guard: a webhook may only reach a public host over https.

`vet_url` is called at registration and again before every delivery attempt (DNS can
change). It resolves the host once and returns the vetted address; the delivery connects to
that address (with the original Host header and TLS server name), so a DNS answer that
changes between the check and the connection (DNS rebinding) cannot redirect it.

`settings.WEBHOOKS_ALLOW_HTTP` admits plain http, `settings.WEBHOOKS_ALLOW_PRIVATE` admits
private, loopback and link-local targets; both are for development and tests only.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_SHARED_ADDRESS_SPACE = ipaddress.IPv4Network("100.64.0.0/10")  # carrier-grade NAT
_DEFAULT_PORTS = {"https": 443, "http": 80}


class UnsafeTargetError(ValueError):
    """The URL may not be used as a webhook target; the message says why (shown to users)."""


@dataclass(frozen=True)
class VettedTarget:
    """Where to connect: `address` is a checked IP address that `host` resolved to."""

    url: str
    scheme: str
    host: str
    port: int
    address: str


def resolve_host(host: str, port: int) -> list[str]:
    """Every address `host` resolves to (tests replace this to simulate DNS changes)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address tunnels to (mapped, 6to4, NAT64, Teredo), if any."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.teredo is not None:
        return address.teredo[1]
    return None


def non_public_reason(address: IPAddress) -> str | None:
    """Why `address` is not a public unicast address, or None when it is."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            reason = non_public_reason(embedded)
            if reason is not None:
                return f"{reason} (embedded in {address})"
    checks = [
        (address.is_unspecified, "an unspecified address"),
        (address.is_loopback, "a loopback address"),
        (address.is_link_local, "a link-local address"),
        (address.is_multicast, "a multicast address"),
        (
            isinstance(address, ipaddress.IPv4Address) and address in _SHARED_ADDRESS_SPACE,
            "a carrier-grade NAT address",
        ),
        (address.is_reserved, "a reserved address"),
        (address.is_private, "a private address"),
        (not address.is_global, "not a public address"),
    ]
    return next((reason for failed, reason in checks if failed), None)


def vet_url(
    url: str, *, allow_http: bool | None = None, allow_private: bool | None = None
) -> VettedTarget:
    """Check `url` and resolve its host; raise UnsafeTargetError with a readable reason.

    Every address the host resolves to must be public (a host with one private address is
    refused: which address a client picks is not ours to choose).
    """
    allow_http = settings.WEBHOOKS_ALLOW_HTTP if allow_http is None else allow_http
    allow_private = settings.WEBHOOKS_ALLOW_PRIVATE if allow_private is None else allow_private
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise UnsafeTargetError(f"The URL is not valid: {error}.") from None
    scheme = parts.scheme.lower()
    if scheme != "https" and not (scheme == "http" and allow_http):
        raise UnsafeTargetError("Only https URLs are accepted as webhook targets.")
    host = parts.hostname
    if not host:
        raise UnsafeTargetError("The URL has no host.")
    if parts.username is not None or parts.password is not None:
        raise UnsafeTargetError("Credentials in the URL are not accepted; use the signature.")
    port = port or _DEFAULT_PORTS[scheme]
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        try:
            resolved = resolve_host(host, port)
        except (OSError, UnicodeError):
            raise UnsafeTargetError(f"The host {host} does not resolve.") from None
        addresses = [ipaddress.ip_address(item.split("%", 1)[0]) for item in resolved]
    if not addresses:
        raise UnsafeTargetError(f"The host {host} does not resolve.")
    if not allow_private:
        for address in addresses:
            reason = non_public_reason(address)
            if reason is not None:
                raise UnsafeTargetError(
                    f"The host {host} resolves to {address}, {reason}; webhook targets must "
                    "be public."
                )
    return VettedTarget(url=url, scheme=scheme, host=host, port=port, address=str(addresses[0]))
