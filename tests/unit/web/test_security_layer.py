"""The HTTP layer's protections, through the real layer (Starlette's test
client): headers on pages, JSON and media, HSTS on the production host only,
internal paths answered 404 while built assets are served; and the origins
CORS and the websocket accept."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from manga_app.web import middleware
from manga_app.web.origins import allowed_origins
from manga_app.web.security_headers import SecurityHeaders


def reflex_stand_in(request):
    """Reflex's frontend mount answers anything with the app shell (200)."""
    return PlainTextResponse("app shell")


@pytest.fixture
def client(tmp_path: Path, monkeypatch) -> TestClient:
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "entry-abc.js").write_text("export {}")
    monkeypatch.setattr(middleware.shell, "static_dir", lambda: tmp_path)
    reflex = Starlette(routes=[Route("/{path:path}", reflex_stand_in)])
    layer = SecurityHeaders(middleware.SiteHttpLayer(reflex), production_host="manga.example")
    return TestClient(layer)


@pytest.mark.parametrize("path", ["/assets/", "/assets/missing.js", "/assets/%2e%2e/index.html", "/_upload", "/_upload/x", "/_all_routes"])
def test_internal_paths_answer_404_not_the_app_shell(client, path):
    response = client.get(path)
    assert response.status_code == 404 and "app shell" not in response.text


def test_built_assets_are_still_served(client):
    assert client.get("/assets/entry-abc.js").status_code == 200


@pytest.mark.parametrize("path", ["/assets/entry-abc.js", "/_all_routes", "/ping"])
def test_every_response_carries_the_headers(client, path):
    headers = client.get(path).headers
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "strict-origin-when-cross-origin"
    # Not a page: nothing may run or load, and nobody may frame it.
    assert headers["content-security-policy"] == "default-src 'none'; frame-ancestors 'none'"
    assert headers["x-frame-options"] == "DENY"
    assert "strict-transport-security" not in headers


def test_a_built_html_file_keeps_what_it_needs_to_show_but_is_never_framed(tmp_path: Path):
    def built_file(request):
        return HTMLResponse("<img src='/media/a.webp'>")

    layer = SecurityHeaders(Starlette(routes=[Route("/{path:path}", built_file)]), production_host="")
    assert TestClient(layer).get("/bench-floor.html").headers["content-security-policy"] == "frame-ancestors 'none'"


def test_hsts_on_the_production_host_only(client):
    assert client.get("/ping", headers={"host": "manga.example"}).headers["strict-transport-security"].startswith("max-age=")
    assert "strict-transport-security" not in client.get("/ping", headers={"host": "evil.example"}).headers


def test_origins_are_the_site_s_plus_loopback_in_local_mode():
    public = allowed_origins(site_origin="https://manga.example", production_host="manga.example", port=3000, local=False)
    assert public == ["https://manga.example"]
    local = allowed_origins(site_origin="http://localhost:3000", production_host="", port=3000, local=True)
    assert local == ["http://127.0.0.1:3000", "http://[::1]:3000", "http://localhost:3000"]
    assert "*" not in local and "http://evil.example" not in local


@pytest.mark.parametrize("path", ["/ping", "/assets/entry-abc.js", "/_all_routes"])
def test_no_powerful_feature_no_foreign_opener_no_foreign_embedding(client, path):
    headers = client.get(path).headers
    allowed = dict(item.strip().split("=") for item in headers["permissions-policy"].split(","))
    assert {allowed[name] for name in ("camera", "microphone", "geolocation", "payment", "usb")} == {"()"}
    # Firebase's Google sign-in popup reports back to its opener.
    assert headers["cross-origin-opener-policy"] == "same-origin-allow-popups"
    assert headers["cross-origin-resource-policy"] == "same-origin"


def test_media_may_be_shown_by_pages_of_another_site():
    """A CDN on another site (MEDIA_BASE_URL) hands our /media responses on
    to pages of our origin: same-origin or same-site would block the images."""
    def media(request):
        return PlainTextResponse("image", headers={"cross-origin-resource-policy": "same-origin"})

    layer = SecurityHeaders(Starlette(routes=[Route("/{path:path}", media)]), production_host="")
    response = TestClient(layer).get("/media/a/b.webp")
    assert response.headers.get_list("cross-origin-resource-policy") == ["cross-origin"]
    assert TestClient(layer).get("/mediaeval").headers["cross-origin-resource-policy"] == "same-origin"
