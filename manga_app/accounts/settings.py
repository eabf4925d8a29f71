"""Firebase configuration, read once from the environment, refusing the one
dangerous combination: emulator mode against a real project.

Emulator tokens are unsigned, so if FIREBASE_AUTH_EMULATOR_HOST were honoured
for a real project anyone could forge a token for any uid. A `demo-` project
id exists only inside the emulator, which makes the pairing safe.

Local default: project `demo-manga-hiroba` on the emulator at 127.0.0.1:9099
(started by `make run` and the tests), so nothing leaves the machine."""

from __future__ import annotations

import ipaddress
import logging
import os
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from manga_app.core.config import get_settings

logger = logging.getLogger(__name__)

DEMO_PREFIX = "demo-"
DEFAULT_PROJECT_ID = "demo-manga-hiroba"
DEFAULT_EMULATOR_HOST = "127.0.0.1:9099"
EMULATOR_ENV = "FIREBASE_AUTH_EMULATOR_HOST"
UNSAFE_OPT_IN = "UNSAFE_ALLOW_AUTH_EMULATOR"


class FirebaseConfigError(RuntimeError):
    """The Firebase settings are unsafe or incomplete; the site must not start."""


class FirebaseSettings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", case_sensitive=False)

    firebase_project_id: str = Field(default=DEFAULT_PROJECT_ID, max_length=100)
    # The web config the browser SDK needs (public values, not secrets).
    firebase_api_key: str = ""
    firebase_auth_domain: str = ""
    firebase_app_id: str = ""
    # None: the default for the project kind (the emulator for demo- ids).
    firebase_auth_emulator_host: str | None = None
    # Emulator mode on a site configured for the public (a test of the
    # production host on one machine): only with this explicit opt-in.
    unsafe_allow_auth_emulator: bool = False
    # Sign-ins ask Firebase whether the token was revoked or the account
    # disabled or deleted (a real project needs service-account credentials).
    firebase_check_revoked: bool = True


@dataclass(frozen=True)
class FirebaseConfig:
    """The checked configuration: what the admin SDK and the browser use."""

    project_id: str
    api_key: str
    auth_domain: str
    app_id: str
    emulator_host: str  # "" for a real project
    check_revoked: bool = True

    @property
    def emulated(self) -> bool:
        return bool(self.emulator_host)

    @property
    def emulator_url(self) -> str:
        return f"http://{self.emulator_host}" if self.emulator_host else ""

    def web_config(self) -> dict[str, str]:
        """The browser SDK's `initializeApp` options."""
        config = {"apiKey": self.api_key, "authDomain": self.auth_domain, "projectId": self.project_id}
        if self.app_id:
            config["appId"] = self.app_id
        return config

    def browser_settings(self) -> dict[str, str]:
        """What the browser client is sent when it starts (never built into
        the frontend, so one build serves any project): the web config, and
        in emulator mode the emulator's host:port. A loopback emulator host
        is reached at the host the visitor used (see client.jsx)."""
        return {**self.web_config(), "emulatorHost": self.emulator_host}


def resolve(settings: FirebaseSettings) -> FirebaseConfig:
    """Check `settings` and fill the defaults; FirebaseConfigError when unsafe."""
    project = settings.firebase_project_id.strip()
    if not project:
        raise FirebaseConfigError("FIREBASE_PROJECT_ID is empty")
    demo = project.startswith(DEMO_PREFIX)
    host = settings.firebase_auth_emulator_host
    host = (DEFAULT_EMULATOR_HOST if demo else "") if host is None else host.strip()
    if host and not demo:
        raise FirebaseConfigError(
            f"{EMULATOR_ENV}={host} is set together with the real project {project!r}: emulator tokens are "
            f"unsigned, so this would accept forged sign-ins. Unset {EMULATOR_ENV} in production, or use a "
            f"'{DEMO_PREFIX}' project id for local runs."
        )
    if demo and not host:
        raise FirebaseConfigError(
            f"The project {project!r} is a demo project, which only exists in the Auth emulator: "
            f"set {EMULATOR_ENV} (default {DEFAULT_EMULATOR_HOST}) or a real FIREBASE_PROJECT_ID."
        )
    if "/" in host:
        raise FirebaseConfigError(f"{EMULATOR_ENV} must be host:port without a scheme, got {host!r}")
    if not demo and not settings.firebase_api_key:
        raise FirebaseConfigError(f"FIREBASE_API_KEY is required for the real project {project!r}")
    return FirebaseConfig(
        project_id=project,
        # The emulator accepts any key; the SDK only needs a non-empty one.
        api_key=settings.firebase_api_key or "demo-api-key",
        auth_domain=settings.firebase_auth_domain or f"{project}.firebaseapp.com",
        app_id=settings.firebase_app_id,
        emulator_host=host,
        check_revoked=settings.firebase_check_revoked,
    )


@lru_cache(maxsize=1)
def get_firebase_config() -> FirebaseConfig:
    return resolve(FirebaseSettings())


def is_loopback_origin(origin: str) -> bool:
    """True for an origin on this machine (http://localhost:3000, http://127.0.0.1)."""
    host = (urlsplit(origin).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def public_settings(*, production_host: str, site_origin: str) -> list[str]:
    """The settings that say the site is meant for the public, as the
    operator wrote them ([] for a local run)."""
    found = []
    if production_host.strip():
        found.append(f"PRODUCTION_HOST={production_host.strip()}")
    if site_origin.strip() and not is_loopback_origin(site_origin.strip()):
        found.append(f"SITE_ORIGIN={site_origin.strip()} (not a loopback origin)")
    return found


def check_emulator_exposure(config: FirebaseConfig, *, public: list[str], unsafe_opt_in: bool) -> None:
    """Emulator tokens are unsigned: emulator mode is for this machine only.
    FirebaseConfigError when the site is configured for the public, unless
    the operator opted in (then a warning, at every start)."""
    if not config.emulated or not public:
        return
    named = ", ".join(public)
    if not unsafe_opt_in:
        raise FirebaseConfigError(
            f"The Firebase Auth emulator ({EMULATOR_ENV}={config.emulator_host}, project {config.project_id!r}) "
            f"accepts unsigned tokens, so anyone could sign in as anyone, but the site is configured for the public: "
            f"{named}. Configure a real Firebase project (FIREBASE_PROJECT_ID, FIREBASE_API_KEY) for production, "
            f"or unset those settings for a local run. To test the production host on this machine only, "
            f"set {UNSAFE_OPT_IN}=1."
        )
    logger.warning(
        "%s=1: the Auth emulator (unsigned tokens) serves a site configured for the public (%s). "
        "Anyone who can reach it can sign in as anyone. Only for tests on this machine.",
        UNSAFE_OPT_IN,
        named,
    )


def check_firebase_at_startup() -> FirebaseConfig:
    """Call once when the app starts: refuses unsafe settings (emulator mode
    on a site configured for the public among them), warns in emulator mode,
    and points firebase-admin at the emulator (it reads the environment
    variable itself, at every verification)."""
    config = get_firebase_config()
    site = get_settings()
    check_emulator_exposure(
        config,
        public=public_settings(production_host=site.production_host, site_origin=site.site_origin),
        unsafe_opt_in=FirebaseSettings().unsafe_allow_auth_emulator,
    )
    if config.emulated:
        os.environ[EMULATOR_ENV] = config.emulator_host
        logger.warning(
            "Firebase Auth EMULATOR mode (project %s, emulator %s): ID tokens are not signed. "
            "Never use this in production.",
            config.project_id,
            config.emulator_host,
        )
    return config
