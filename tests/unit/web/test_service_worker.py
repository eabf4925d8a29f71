"""/sw.js through the real HTTP layer: the worker of assets/js/offline/sw.js
with the build's files to keep, a version that changes with the build, its
own Content-Security-Policy, and never cached stale."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from manga_app.core.config import get_settings
from manga_app.web import middleware, service_worker
from manga_app.web.security_headers import SecurityHeaders


def build(root: Path, scripts: list[str]) -> None:
    """A built frontend: hashed scripts (with their .gz twins), styles, an index."""
    (root / "assets").mkdir(parents=True, exist_ok=True)
    (root / "css").mkdir(exist_ok=True)
    for name in scripts:
        (root / "assets" / name).write_text("export {}")
        (root / "assets" / f"{name}.gz").write_bytes(b"\x1f\x8b")
    (root / "css" / "site.css").write_text("body {}")
    (root / "index.html").write_text("<html></html>")


@pytest.fixture
def client(tmp_path: Path, monkeypatch) -> TestClient:
    build(tmp_path, ["entry-abc.js", "root-def.js"])
    monkeypatch.setattr(middleware.shell, "static_dir", lambda: tmp_path)
    reflex = Starlette(routes=[Route("/{path:path}", lambda request: PlainTextResponse("app shell"))])
    return TestClient(SecurityHeaders(middleware.SiteHttpLayer(reflex), production_host="manga.example"))


def constants(script: str) -> dict:
    return {name: json.loads(value) for name, value in re.findall(r"^const (VERSION|SHELL|MEDIA_ORIGIN) = (.*);$", script, re.M)}


def test_the_worker_is_served_at_the_root_with_the_builds_files(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    # Revalidated on every visit: a new build is seen at once.
    assert response.headers["cache-control"] == "no-cache"
    found = constants(response.text)
    assert found["SHELL"][:3] == ["/assets/entry-abc.js", "/assets/root-def.js", "/css/site.css"]
    assert not any(path.endswith(".gz") for path in found["SHELL"])
    assert "/manifest.json" in found["SHELL"] and "/favicon.ico" in found["SHELL"]
    assert found["MEDIA_ORIGIN"] == ""
    assert "self.addEventListener(\"fetch\"" in response.text


def test_the_worker_may_fetch_only_the_site_itself(client):
    policy = client.get("/sw.js").headers["content-security-policy"]
    assert policy == "default-src 'none'; connect-src 'self'; frame-ancestors 'none'"


def test_a_cdn_for_media_is_the_one_other_origin_the_worker_fetches(client, monkeypatch):
    monkeypatch.setattr(get_settings(), "media_base_url", "https://cdn.example.net/media")
    response = client.get("/sw.js")
    assert constants(response.text)["MEDIA_ORIGIN"] == "https://cdn.example.net"
    assert "connect-src 'self' https://cdn.example.net;" in response.headers["content-security-policy"]


def test_a_new_build_is_a_new_version_of_the_worker(tmp_path: Path):
    template = service_worker.TEMPLATE.read_text(encoding="utf-8")
    build(tmp_path / "one", ["entry-abc.js"])
    build(tmp_path / "two", ["entry-xyz.js"])
    first = constants(service_worker.worker_script(template, service_worker.shell_files(tmp_path / "one")))
    again = constants(service_worker.worker_script(template, service_worker.shell_files(tmp_path / "one")))
    second = constants(service_worker.worker_script(template, service_worker.shell_files(tmp_path / "two")))
    assert first["VERSION"] == again["VERSION"] != second["VERSION"]


def test_the_saved_chapters_cache_keeps_its_name_across_builds():
    """Saved chapters live in a cache whose name is not the build's: an update never drops them."""
    template = service_worker.TEMPLATE.read_text(encoding="utf-8")
    assert 'const DATA_CACHE = "manga-offline-v1";' in template
    store = (service_worker.TEMPLATE.parent / "store.js").read_text(encoding="utf-8")
    assert 'export const DATA_CACHE = "manga-offline-v1";' in store


def test_the_offline_page_is_a_page():
    assert middleware.is_page_path("/offline")
