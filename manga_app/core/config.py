"""Typed settings, read once from the environment (then `.env`), each with a
working local default so `make run` needs no configuration at all."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from manga_app.core.content_key import ensure_dev_content_key, validate_content_key

PROJECT_ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = PROJECT_ROOT / "data"

DEFAULT_SITE_NAMES = ("漫画ひろば", "まんがひろば", "Manga Hiroba", "生漫画ひろば")


class Settings(BaseSettings):
    """Deployment configuration. Field names are the environment variables."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", case_sensitive=False)

    port: int = Field(default=3000, ge=1, le=65535)
    # Canonical links and og:url are SITE_ORIGIN + the current path.
    site_origin: str = ""
    # Only on this host: robots "index, follow" and analytics.
    production_host: str = ""
    ga_measurement_id: str = ""
    # Comma-separated; the default <title> is these names joined.
    site_names: str = ",".join(DEFAULT_SITE_NAMES)
    # Antd notifications: how many may be stacked at once.
    notification_max_count: int = Field(default=3, ge=1, le=20)
    content_key: SecretStr | None = None
    media_base_url: str = "/media"
    # Where the backend loads the published lists from (the spec's loader);
    # by default this very server, else a CDN or object store.
    catalogue_url: str = ""
    # How often a process checks whether the published lists changed.
    catalogue_refresh_seconds: float = Field(default=30.0, ge=0.0, le=3600.0)
    data_dir: Path = DATA_DIR
    # Comma-separated Google account e-mails of the operators (/admin): their
    # verified e-mail must be one of these (or their token carry admin: true).
    admin_emails: str = ""
    # Distinct visitors whose chapter views (and likes) count per address,
    # chapter and day: a bound on a script that drops its id, set well above
    # the people a mobile carrier puts behind one address.
    visitors_per_address: int = Field(default=50, ge=1, le=1_000_000)
    # The console's uploads (/admin/upload): the largest file taken, and the
    # free disk an upload must leave under DATA_DIR (the import needs room too).
    upload_max_bytes: int = Field(default=4 * 1024**3, ge=1)
    upload_keep_free_bytes: int = Field(default=1024**3, ge=0)

    @field_validator("site_origin")
    @classmethod
    def _strip_trailing_slash(cls, value: str) -> str:
        return value.rstrip("/")

    @field_validator("data_dir", mode="before")
    @classmethod
    def _absolute_data_dir(cls, value: object) -> Path:
        # An empty DATA_DIR must not silently mean "the current directory".
        if value is None or str(value).strip() == "":
            return DATA_DIR
        return Path(str(value)).expanduser().resolve()

    @field_validator("ga_measurement_id")
    @classmethod
    def _check_measurement_id(cls, value: str) -> str:
        value = value.strip()
        if value and not re.fullmatch(r"G-[A-Z0-9]{4,20}", value):
            raise ValueError("GA_MEASUREMENT_ID must look like G-XXXXXXXXXX")
        return value

    @field_validator("production_host")
    @classmethod
    def _normalise_host(cls, value: str) -> str:
        return value.strip().lower()

    @property
    def media_dir(self) -> Path:
        return self.data_dir / "media"

    @property
    def published_dir(self) -> Path:
        return self.data_dir / "published"

    @property
    def origin(self) -> str:
        """The canonical origin; defaults to the local server."""
        return self.site_origin or f"http://localhost:{self.port}"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name.strip() for name in self.site_names.split(",") if name.strip())

    @property
    def operator_emails(self) -> frozenset[str]:
        """ADMIN_EMAILS, trimmed and lower-cased."""
        return frozenset(email.strip().lower() for email in self.admin_emails.split(",") if email.strip())

    @property
    def site_name(self) -> str:
        return self.names[0] if self.names else DEFAULT_SITE_NAMES[0]


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()


def content_key(settings: Settings) -> str:
    """The manifest key: CONTENT_KEY (validated), else the local development
    key under DATA_DIR, created on first use."""
    if settings.content_key is not None:
        return validate_content_key(settings.content_key.get_secret_value())
    return ensure_dev_content_key(settings.data_dir / "content_key")
