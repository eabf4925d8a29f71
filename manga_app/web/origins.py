"""The origins a browser may call the backend from (CORS and the websocket's
Origin): the site's own, the production host's, and in local mode (the Auth
emulator: this machine only) the loopback names on the site's port. Pure."""

from __future__ import annotations

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def allowed_origins(*, site_origin: str, production_host: str, port: int, local: bool) -> list[str]:
    found = {site_origin.rstrip("/")}
    if production_host:
        found.add(f"https://{production_host}")
    if local:
        names = LOOPBACK_NAMES + ((production_host,) if production_host else ())
        found.update(f"http://{name}:{port}" for name in names)
    return sorted(found)
