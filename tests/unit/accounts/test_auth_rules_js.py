"""assets/js/firebase/auth_rules.js: what the browser's auth client decides
without the Firebase SDK (run in the project's Node)."""

from __future__ import annotations

import json

import pytest

from tests.unit.node import JS, run_module

MODULE = JS / "firebase" / "auth_rules.js"


@pytest.mark.parametrize(
    ("host", "page_host", "url"),
    [
        ("127.0.0.1:9099", "192.168.1.5", "http://192.168.1.5:9099"),  # a phone on the LAN
        ("localhost:9099", "", "http://localhost:9099"),
        ("auth.internal:9099", "192.168.1.5", "http://auth.internal:9099"),
        ("", "192.168.1.5", ""),  # no emulator: production Firebase
    ],
)
def test_the_emulator_is_reached_at_the_host_the_visitor_opened(host, page_host, url):
    assert run_module(MODULE, f"return m.emulatorUrl({json.dumps(host)}, {json.dumps(page_host)});") == url


def test_a_token_is_refreshed_five_minutes_before_it_expires_and_at_once_when_late():
    assert run_module(MODULE, "return [m.refreshDelay(3_600_000, 0), m.refreshDelay(1_000, 0)];") == [3_300_000, 0]


def test_a_linked_guest_keeps_the_google_name_and_photo():
    google = {"providerId": "google.com", "displayName": "青井", "photoURL": "https://p/a.png"}
    profiles = run_module(MODULE, f"""return [
        m.googleProfile({{ providerData: [{json.dumps(google)}] }}),
        m.googleProfile({{ displayName: "既存", providerData: [{json.dumps(google)}] }}),
        m.googleProfile({{ providerData: [] }}),
    ];""")
    assert profiles == [
        {"displayName": "青井", "photoURL": "https://p/a.png"},
        {"displayName": "既存", "photoURL": "https://p/a.png"},
        None,
    ]


def test_google_s_helper_counts_as_loaded_only_with_its_iframes_module():
    # The Google sign-in waits for gapi.iframes; a loader without it (a script
    # that loaded but never finished) is not the helper.
    assert run_module(MODULE, """return [
        m.helperLoaded({}),
        m.helperLoaded({ gapi: { load() {} } }),
        m.helperLoaded({ gapi: { iframes: { getContext() {} } } }),
    ];""") == [False, False, True]


def test_only_a_browser_holding_a_signed_in_user_needs_the_sdk_before_a_sign_in():
    # Local persistence keeps the user under the SDK's own key: the key of
    # this app and API key, not another app's; storage that cannot be read
    # leaves it to the SDK.
    held = run_module(MODULE, """
        const storage = (items) => ({ getItem: (key) => (key in items ? items[key] : null) });
        const key = m.storedUserKey("demo-api-key", "manga-hiroba");
        return [
            key,
            m.holdsStoredUser(storage({ [key]: "{}" }), "demo-api-key", "manga-hiroba"),
            m.holdsStoredUser(storage({}), "demo-api-key", "manga-hiroba"),
            m.holdsStoredUser(storage({ "firebase:authUser:demo-api-key:another-app": "{}" }), "demo-api-key", "manga-hiroba"),
            m.holdsStoredUser({ getItem() { throw new Error("denied"); } }, "demo-api-key", "manga-hiroba"),
        ];""")
    assert held == ["firebase:authUser:demo-api-key:manga-hiroba", True, False, False, True]
