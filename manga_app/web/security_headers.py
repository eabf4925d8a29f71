"""Headers every HTTP response carries (pages, JSON, media, built files):
no MIME sniffing, no full referrer to other origins, never framed, no
powerful browser feature the site does not use (Permissions-Policy), no
window of another origin holding ours (COOP; popups the page opens keep
their opener: Firebase's Google sign-in popup reports back through it),
no other site embedding our responses (CORP) but the images under /media,
which pages on a media origin of another site (MEDIA_BASE_URL, a CDN)
must be able to show, and on the production host HSTS. Pages bring their own Content-Security-Policy
(ssr/csp.py, web/pages.py); every other response but a built HTML file
gets one that allows nothing to run or load (csp.DEFAULT): an image or
JSON opened on its own is inert."""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from manga_app.ssr import csp

HSTS = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")
ALWAYS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
    (b"x-frame-options", b"DENY"),
    (
        b"permissions-policy",
        b"accelerometer=(), autoplay=(), browsing-topics=(), camera=(), display-capture=(), geolocation=(), "
        b"gyroscope=(), hid=(), magnetometer=(), microphone=(), midi=(), payment=(), serial=(), usb=()",
    ),
    (b"cross-origin-opener-policy", b"same-origin-allow-popups"),
)
_CORP = b"cross-origin-resource-policy"
_MEDIA_PREFIX = "/media/"
_OURS = {name for name, _value in (*ALWAYS, HSTS)} | {_CORP}
_CSP = b"content-security-policy"
_DEFAULT_CSP = (_CSP, csp.DEFAULT.encode("ascii"))
# A built HTML file (not a page: pages bring their own policy) may still be opened.
_HTML_FILE_CSP = (_CSP, b"frame-ancestors 'none'")


def request_host(scope: Scope) -> str:
    for name, value in scope.get("headers") or ():
        if name == b"host":
            try:
                return urlsplit("//" + value.decode("latin-1").strip()).hostname or ""
            except ValueError:  # a malformed Host header is no host of ours
                return ""
    return ""


class SecurityHeaders:
    def __init__(self, app: ASGIApp, *, production_host: str) -> None:
        self.app = app
        self.production_host = production_host.lower()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = list(ALWAYS)
        extra.append((_CORP, b"cross-origin" if scope["path"].startswith(_MEDIA_PREFIX) else b"same-origin"))
        if self.production_host and request_host(scope) == self.production_host:
            extra.append(HSTS)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(name, value) for name, value in message.get("headers", []) if name.lower() not in _OURS]
                if not any(name.lower() == _CSP for name, _value in headers):
                    html = any(name.lower() == b"content-type" and value.startswith(b"text/html") for name, value in headers)
                    headers.append(_HTML_FILE_CSP if html else _DEFAULT_CSP)
                message = {**message, "headers": headers + extra}
            await send(message)

        await self.app(scope, receive, send_with_headers)
