"""Table-driven tests for manga_app.core.config.Settings, built from keyword
arguments and from the environment."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from manga_app.core.config import DEFAULT_SITE_NAMES, Settings

pytestmark = pytest.mark.usefixtures("clean_settings")


def from_kwargs(**values) -> Settings:
    return Settings(_env_file=None, **values)


def from_env(monkeypatch, **variables: str) -> Settings:
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    return Settings()


def build(source, monkeypatch, field: str, value) -> Settings:
    if source == "kwargs":
        return from_kwargs(**{field.lower(): value})
    return from_env(monkeypatch, **{field.upper(): str(value)})


SOURCES = [pytest.param("kwargs", id="kwargs"), pytest.param("env", id="env")]


# --------------------------------------------------------------------------
# defaults
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: Settings(_env_file=None), id="no-env-file"),
        pytest.param(Settings, id="empty-cwd"),
    ],
)
def test_the_defaults_work_without_any_configuration(make):
    settings = make()
    assert settings.port == 3000
    assert settings.origin == "http://localhost:3000"
    assert settings.production_host == ""
    assert settings.ga_measurement_id == ""
    assert settings.names == DEFAULT_SITE_NAMES
    assert all(name for name in settings.names)
    assert settings.site_name == DEFAULT_SITE_NAMES[0]


@pytest.mark.parametrize("source", SOURCES)
def test_the_default_origin_follows_the_port(source, monkeypatch):
    assert build(source, monkeypatch, "port", 8080).origin == "http://localhost:8080"


def test_a_dotenv_file_in_the_working_directory_is_read(tmp_path):
    (tmp_path / ".env").write_text("SITE_ORIGIN=https://from-dotenv.example.jp/\n", encoding="utf-8")
    assert Settings().origin == "https://from-dotenv.example.jp"


def test_the_environment_wins_over_the_dotenv_file(tmp_path, monkeypatch):
    (tmp_path / ".env").write_text("PRODUCTION_HOST=dotenv.example.jp\n", encoding="utf-8")
    assert from_env(monkeypatch, PRODUCTION_HOST="env.example.jp").production_host == "env.example.jp"


def test_environment_variable_names_are_case_insensitive(monkeypatch):
    assert from_env(monkeypatch, site_origin="https://lower.example.jp").origin == "https://lower.example.jp"


# --------------------------------------------------------------------------
# SITE_ORIGIN
# --------------------------------------------------------------------------

ORIGIN_CASES = [
    pytest.param("https://manga.example.jp", "https://manga.example.jp", id="no-slash"),
    pytest.param("https://manga.example.jp/", "https://manga.example.jp", id="one-slash"),
    pytest.param("https://manga.example.jp///", "https://manga.example.jp", id="many-slashes"),
    pytest.param("http://localhost:8000/", "http://localhost:8000", id="local-with-port"),
]


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize(("value", "expected"), ORIGIN_CASES)
def test_the_site_origin_loses_its_trailing_slash(source, monkeypatch, value, expected):
    settings = build(source, monkeypatch, "site_origin", value)
    assert settings.site_origin == expected
    assert settings.origin == expected


# --------------------------------------------------------------------------
# PRODUCTION_HOST
# --------------------------------------------------------------------------

HOST_CASES = [
    pytest.param("manga.example.jp", "manga.example.jp", id="lower-case"),
    pytest.param("Manga.Example.JP", "manga.example.jp", id="mixed-case"),
    pytest.param("  MANGA.EXAMPLE.JP  ", "manga.example.jp", id="padded-upper-case"),
    pytest.param("   ", "", id="blank"),
]


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize(("value", "expected"), HOST_CASES)
def test_the_production_host_is_trimmed_and_lower_cased(source, monkeypatch, value, expected):
    assert build(source, monkeypatch, "production_host", value).production_host == expected


# --------------------------------------------------------------------------
# GA_MEASUREMENT_ID
# --------------------------------------------------------------------------

GA_ACCEPTED_CASES = [
    pytest.param("G-ABC1234", "G-ABC1234", id="typical"),
    pytest.param("G-ABCDEFGHIJ", "G-ABCDEFGHIJ", id="ten-letters"),
    pytest.param("  G-ABC1234 ", "G-ABC1234", id="padded"),
    pytest.param("", "", id="empty-means-off"),
]


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize(("value", "expected"), GA_ACCEPTED_CASES)
def test_a_ga4_measurement_id_is_accepted(source, monkeypatch, value, expected):
    assert build(source, monkeypatch, "ga_measurement_id", value).ga_measurement_id == expected


GA_REFUSED_CASES = [
    pytest.param("UA-1", id="universal-analytics"),
    pytest.param("UA-12345678-1", id="universal-analytics-full"),
    pytest.param("<script>", id="markup"),
    pytest.param("G-ABC1234<script>alert(1)</script>", id="id-followed-by-markup"),
    pytest.param("G-ABC'+alert(1)+'", id="quote-injection"),
    pytest.param("G-", id="prefix-only"),
    pytest.param("G-ABC", id="too-short"),
    pytest.param("G-ABC 1234", id="inner-space"),
    pytest.param("GTM-ABC1234", id="tag-manager-id"),
]


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("value", GA_REFUSED_CASES)
def test_anything_but_a_ga4_measurement_id_is_refused(source, monkeypatch, value):
    with pytest.raises(ValidationError):
        build(source, monkeypatch, "ga_measurement_id", value)


# --------------------------------------------------------------------------
# SITE_NAMES
# --------------------------------------------------------------------------

NAMES_CASES = [
    pytest.param("漫画ひろば", ("漫画ひろば",), id="one-name"),
    pytest.param("漫画ひろば,Manga Hiroba", ("漫画ひろば", "Manga Hiroba"), id="two-names"),
    pytest.param(" 漫画ひろば , Manga Hiroba ", ("漫画ひろば", "Manga Hiroba"), id="padded-names"),
    pytest.param("A,,B, ,C,", ("A", "B", "C"), id="blanks-dropped"),
    pytest.param(",漫画ひろば", ("漫画ひろば",), id="leading-comma"),
]


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize(("value", "expected"), NAMES_CASES)
def test_site_names_are_a_comma_separated_list_without_blanks(source, monkeypatch, value, expected):
    settings = build(source, monkeypatch, "site_names", value)
    assert settings.names == expected
    assert settings.site_name == expected[0]


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("value", [pytest.param(" , ,", id="only-commas"), pytest.param("   ", id="blank")])
def test_with_no_usable_site_name_the_site_name_falls_back_to_the_default(source, monkeypatch, value):
    settings = build(source, monkeypatch, "site_names", value)
    assert settings.names == ()
    assert settings.site_name == DEFAULT_SITE_NAMES[0]


# --------------------------------------------------------------------------
# PORT
# --------------------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize(
    "port",
    [pytest.param(1, id="lowest"), pytest.param(8000, id="typical"), pytest.param(65535, id="highest")],
)
def test_a_port_in_range_is_accepted(source, monkeypatch, port):
    assert build(source, monkeypatch, "port", port).port == port


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize(
    "port",
    [
        pytest.param(0, id="zero"),
        pytest.param(-1, id="negative"),
        pytest.param(65536, id="one-too-high"),
        pytest.param(100000, id="far-too-high"),
        pytest.param("http", id="not-a-number"),
    ],
)
def test_a_port_out_of_range_is_refused(source, monkeypatch, port):
    with pytest.raises(ValidationError):
        build(source, monkeypatch, "port", port)


# --------------------------------------------------------------------------
# NOTIFICATION_MAX_COUNT
# --------------------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize(
    ("count", "ok"),
    [
        pytest.param(1, True, id="one"),
        pytest.param(20, True, id="twenty"),
        pytest.param(0, False, id="zero"),
        pytest.param(21, False, id="twenty-one"),
    ],
)
def test_the_notification_stack_size_is_bounded(source, monkeypatch, count, ok):
    if ok:
        assert build(source, monkeypatch, "notification_max_count", count).notification_max_count == count
    else:
        with pytest.raises(ValidationError):
            build(source, monkeypatch, "notification_max_count", count)
