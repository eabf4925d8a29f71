"""The documented production front (deploy/nginx.conf, README "Production
front"): Debian's nginx with a certificate of a CA this test makes, the app
behind it on loopback as `make run` serves it, on the production host.
Through HTTPS every page kind loads and hydrates in Chromium without a
Content-Security-Policy violation, the event websocket carries events both
ways, and MDN's HTTP Observatory (tools/observatory) grades the HTML pages A+."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import trustme
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import (CHROMIUM, CHROMIUM_ARGS, PORT, PRODUCTION_HOST, ROOT, WEB_DIR, _wait_until_up,
                                guarded_context, wait_for_hydration)
from tests.e2e.test_validators import page_paths  # noqa: F401 (a fixture: one path of every page kind)

HTTPS_PORT = PORT + 5
HTTP_PORT = PORT + 6
APP_PORT = PORT + 7
# The browser's address of the site: port 443, which Chromium maps to the front's port.
FRONT = f"https://{PRODUCTION_HOST}"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
GRADED = ("home", "title", "reader-chapter")


def front_config(site: str, *, certificate: Path, key: Path) -> str:
    """deploy/nginx.conf as the test runs it: its names, ports and paths only."""
    changes = {
        "server 127.0.0.1:3000;": f"server 127.0.0.1:{APP_PORT};",
        "server_name manga.example;": f"server_name {PRODUCTION_HOST};",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{HTTPS_PORT} ssl http2;",
        "listen [::]:443 ssl http2;\n": "",
        "listen 80;": f"listen 127.0.0.1:{HTTP_PORT};",
        "listen [::]:80;\n": "",
        "return 301 https://$host$request_uri;": f"return 301 https://$host:{HTTPS_PORT}$request_uri;",
        "/etc/ssl/manga/fullchain.pem": str(certificate),
        "/etc/ssl/manga/privkey.pem": str(key),
    }
    for old, new in changes.items():
        assert old in site, f"deploy/nginx.conf no longer has {old!r}: update this test"
        site = site.replace(old, new)
    return site


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture(scope="module")
def production_app(base_url: str, server_env: dict[str, str]) -> Iterator[str]:
    """The app as the public site runs it: the same build, catalogue and
    production host, but a real Firebase project instead of the tests' Auth
    emulator (whose plain-HTTP origin the pages would otherwise allow)."""
    env = {name: value for name, value in server_env.items()
           if name not in ("FIREBASE_AUTH_EMULATOR_HOST", "UNSAFE_ALLOW_AUTH_EMULATOR")}
    env.update(FIREBASE_PROJECT_ID="manga-front-test", FIREBASE_API_KEY="front-test-key",
               FIREBASE_AUTH_DOMAIN="manga-front-test.firebaseapp.com", PORT=str(APP_PORT), REFLEX_WEB_WORKDIR=WEB_DIR)
    log = open(Path(env["DATA_DIR"]) / f"server-{APP_PORT}.log", "w")
    process = subprocess.Popen(
        [str(ROOT / ".venv/bin/python"), "-m", "manga_app.serve", "--port", str(APP_PORT), "--host", "127.0.0.1"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        _wait_until_up(f"http://127.0.0.1:{APP_PORT}", process)
        yield f"http://127.0.0.1:{APP_PORT}"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=15)
        log.close()


@pytest.fixture(scope="module")
def front(production_app: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    folder = tmp_path_factory.mktemp("front")
    ca = trustme.CA()
    leaf = ca.issue_cert(PRODUCTION_HOST)
    ca.cert_pem.write_to_path(str(folder / "ca.pem"))
    leaf.private_key_pem.write_to_path(str(folder / "key.pem"))
    with open(folder / "chain.pem", "wb") as chain:
        for blob in leaf.cert_chain_pems:
            chain.write(blob.bytes())
    site = front_config((ROOT / "deploy/nginx.conf").read_text(), certificate=folder / "chain.pem", key=folder / "key.pem")
    (folder / "site.conf").write_text(site)
    for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / name).mkdir()
    (folder / "nginx.conf").write_text(f"""
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
""")
    for port in (HTTPS_PORT, HTTP_PORT):
        assert not _listening(port), f"something already listens on {port}: set another E2E_PORT"
    process = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")], start_new_session=True,
                               stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while not (_listening(HTTPS_PORT) and _listening(HTTP_PORT)):
            assert process.poll() is None, f"nginx exited: {process.stderr.read()}"
            assert time.monotonic() < deadline, "nginx did not listen within 20 s"
            time.sleep(0.1)
        spki = x509.load_pem_x509_certificate(leaf.cert_chain_pems[0].bytes()).public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        yield {"ca": folder / "ca.pem", "spki": base64.b64encode(hashlib.sha256(spki).digest()).decode()}
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=15)


@pytest.fixture(scope="module")
def front_browser(browser: Browser, front: dict) -> Iterator[Browser]:
    """Chromium trusting the test's certificate (by its public key) and nothing else of it."""
    rules = f"--host-resolver-rules=MAP {PRODUCTION_HOST}:443 127.0.0.1:{HTTPS_PORT}, MAP {PRODUCTION_HOST} 127.0.0.1"
    args = [arg for arg in CHROMIUM_ARGS if not arg.startswith("--host-resolver-rules")]
    trusting = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*args, rules, f"--ignore-certificate-errors-spki-list={front['spki']}"]
    )
    yield trusting
    trusting.close()


def _get(front: dict, port: int, path: str, scheme: str = "https") -> httpx.Response:
    """A request to the front as a browser on the production host makes it (the name resolved to loopback)."""
    context = ssl.create_default_context(cafile=str(front["ca"]))
    with httpx.Client(verify=context, timeout=20) as client:
        # httpx connects to the URL's host: ask loopback, present the production host (SNI and Host).
        return client.get(f"{scheme}://127.0.0.1:{port}{path}", headers={"host": PRODUCTION_HOST},
                          extensions={"sni_hostname": PRODUCTION_HOST})


def test_plain_http_is_sent_to_https_on_the_same_host(front):
    response = _get(front, HTTP_PORT, "/library?x=1", scheme="http")
    assert response.status_code == 301
    assert response.headers["location"] == f"{FRONT}:{HTTPS_PORT}/library?x=1"


def test_pages_come_through_with_the_app_s_headers_and_no_server_name(front, production_app):
    home = _get(front, HTTPS_PORT, "/")
    assert home.status_code == 200 and "<html" in home.text
    assert home.headers["strict-transport-security"].startswith("max-age=")
    assert "'unsafe-eval'" not in home.headers["content-security-policy"]
    assert home.headers["cross-origin-opener-policy"] == "same-origin-allow-popups"
    assert home.headers["server"] == "nginx"  # server_tokens off: no version
    assert _get(front, HTTPS_PORT, "/library").headers["cache-control"] == "no-store"
    # The app itself, without the front, names no server either.
    assert "server" not in httpx.get(production_app + "/ping", timeout=10).headers


@pytest.mark.parametrize("kind", GRADED)
def test_the_html_pages_grade_a_plus_on_mdn_http_observatory(front, page_paths, kind):  # noqa: F811
    scan = subprocess.run(
        ["node", str(ROOT / "tools/observatory/scan.mjs"), PRODUCTION_HOST, str(HTTPS_PORT), str(HTTP_PORT),
         page_paths[kind]],
        cwd=ROOT / "tools/observatory",
        env={**os.environ, "NODE_EXTRA_CA_CERTS": str(front["ca"]), "OBSERVATORY_RESOLVE": f"{PRODUCTION_HOST}=127.0.0.1"},
        capture_output=True, text=True, timeout=120,
    )
    assert scan.returncode == 0, scan.stdout + scan.stderr
    result = json.loads(scan.stdout)
    assert result["statusCode"] == 200
    lost = {name: test["result"] for name, test in result["tests"].items() if test["scoreModifier"] < 0}
    print(f"Observatory {page_paths[kind]}: {result['grade']} ({result['score']}) lost {lost} "
          f"gained {({n: t['result'] for n, t in result['tests'].items() if t['scoreModifier'] > 0})}")
    assert (result["grade"], result["score"] >= 100) == ("A+", True), f"{result['grade']} ({result['score']}): {lost}"


@pytest.mark.parametrize("kind", [
    "home", "genres", "genre", "author", "tag", "kana-row", "search", "title", "reader-chapter", "reader-volume",
    "library", "history", "offline", "ranking", "calendar", "account", "notifications", "404-path",
])
def test_every_page_kind_hydrates_through_the_front_within_its_policy(front_browser, page_paths, kind):  # noqa: F811
    refused: list[str] = []
    received: list[str] = []
    with guarded_context(front_browser) as context:  # fails on any CSP violation
        page = context.new_page()
        page.on("websocket", lambda socket: socket.on("framereceived", lambda frame: received.append(socket.url)))
        page.on("console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None)
        response = page.goto(FRONT + page_paths[kind])
        assert response is not None and response.status == (404 if kind.startswith("404") else 200)
        assert response.security_details() is not None and response.url.startswith("https://")
        wait_for_hydration(page)
        # The app's first events came back over the websocket, through the front.
        deadline = time.monotonic() + 20
        while not received and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        assert received, "nothing came back over the event websocket"
        assert all(url.startswith(f"wss://{PRODUCTION_HOST}/_event/?") for url in received), received
    assert refused == []


def test_events_round_trip_over_the_proxied_websocket(front_browser):
    with guarded_context(front_browser) as context:
        page = context.new_page()
        page.goto(FRONT + "/")
        wait_for_hydration(page)
        # A handler's notification (a client command, not a script to evaluate).
        page.locator("header").get_by_role("button", name="検索").click()
        expect(page.locator(".ant-notification-notice").first).to_contain_text("検索語を入力してください")
        page.goto(FRONT + "/search")
        wait_for_hydration(page)
        page.get_by_role("combobox", name="検索キーワード").press_sequentially("の", delay=40)
        # The server searched, sent the results back and had the words put in the address.
        expect(page.locator("h1")).to_have_text("「の」の検索結果")
        page.wait_for_function("() => new URLSearchParams(location.search).get('q') === 'の'")
        # Typed faster than the server searches (every 0.25 s): the last words are searched a moment later.
        page.get_by_role("combobox", name="検索キーワード").press_sequentially("ねこ", delay=170)
        expect(page.locator("h1")).to_have_text("「のねこ」の検索結果")
