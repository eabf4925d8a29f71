"""What every OPDS response shares: who is asking (the catalogue root and,
under `/opds/k/{key}`, the key's user), paging, caching and errors.

Public feeds are validated by the held catalogue's version: the ETag is
known before anything is rendered, so a 304 costs nothing. Personal feeds
are private, validated by their own bytes. Errors are plain Japanese text
with their status: 400 for a malformed request, 401 for a wrong or revoked
key, 404 for what does not exist."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import format_datetime, parsedate_to_datetime
from urllib.parse import quote, unquote

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from manga_app.accounts import service
from manga_app.read_models.held import Snapshot, held_catalogue
from manga_app.core.config import get_settings
from manga_app.opds import entries, feeds, urls
from manga_app.opds.feeds import Entry, Feed
from manga_app.opds.urls import Urls

PUBLIC_CACHE = "public, max-age=60"
KEYED_CACHE = "private, max-age=0, must-revalidate"
_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
MAX_PAGE_DIGITS = 6


class OpdsError(Exception):
    """Answered as `status` with the Japanese `message`."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def error_response(error: OpdsError) -> Response:
    headers = {"Cache-Control": "no-store"}
    if error.status == 401:
        headers["WWW-Authenticate"] = 'OPDS-Key realm="opds"'
    return PlainTextResponse(error.message + "\n", status_code=error.status, headers=headers)


@dataclass(frozen=True)
class Asker:
    urls: Urls
    uid: str | None  # the key's user, under /opds/k/{key}
    snapshot: Snapshot

    @property
    def keyed(self) -> bool:
        return self.uid is not None


async def asker(request: Request) -> Asker:
    """The catalogue root this request came through; 401 for a wrong or revoked key."""
    key = request.path_params.get("key")
    uid = None
    root = urls.ROOT
    if key is not None:
        uid = await asyncio.to_thread(service.opds_user, key)
        if uid is None:
            raise OpdsError(401, "このOPDSキーは無効です。ライブラリで新しいキーを作成してください。")
        root = urls.keyed_root(key)
    return Asker(Urls(root), uid, await held_catalogue().snapshot())


def require_user(who: Asker) -> str:
    if who.uid is None:
        raise OpdsError(401, "このフィードを読むにはOPDSキーが必要です。ライブラリでキーを作成してください。")
    return who.uid


def page_number(request: Request) -> int:
    """`?page=` (from 1); 400 when it is not a positive whole number."""
    raw = request.query_params.get("page", "1").strip()
    if not (raw.isascii() and raw.isdigit()) or len(raw) > MAX_PAGE_DIGITS or int(raw) < 1:
        raise OpdsError(400, "ページ番号は1以上の整数で指定してください。")
    return int(raw)


def paged(total: int, per_page: int, number: int, url) -> feeds.Page:
    """The page `number` of a list; 404 past its last page."""
    count = feeds.page_count(total, per_page)
    if number > count:
        raise OpdsError(404, f"このフィードは{count}ページまでです。")
    return feeds.Page(number=number, count=count, url=url, total=total, per_page=per_page)


_updated_of: tuple[object, datetime] | None = None


def catalogue_updated(snapshot: Snapshot) -> datetime:
    """The newest update in the held catalogue (the feeds' `updated` and Last-Modified)."""
    global _updated_of
    if _updated_of is None or _updated_of[0] is not snapshot.mangas:
        times = snapshot.mangas.updated
        moment = datetime.fromtimestamp(max(times), UTC) if len(times) else _EPOCH
        _updated_of = (snapshot.mangas, moment)
    return _updated_of[1]


def _etag_matches(wanted: str, etag: str) -> bool:
    strong = etag.removeprefix("W/")
    return any(tag.strip() in ("*", etag, strong, f"W/{strong}") for tag in wanted.split(",") if tag.strip())


def not_modified(request: Request, etag: str, modified: datetime | None) -> bool:
    wanted = request.headers.get("if-none-match")
    if wanted is not None:
        return _etag_matches(wanted, etag)
    since = request.headers.get("if-modified-since")
    if since and modified is not None:
        try:
            return modified.replace(microsecond=0) <= parsedate_to_datetime(since)
        except (TypeError, ValueError):
            return False
    return False


def catalogue_validated(request: Request, who: Asker, render) -> Response:
    """A feed that depends only on the held catalogue: ETag from its version
    and the request's path, Last-Modified from its newest update; 304 without
    rendering when the client has it."""
    version = who.snapshot.version or "unpublished"
    tag = hashlib.sha256(f"{version}\n{request.url.path}?{request.url.query}".encode()).hexdigest()[:32]
    etag = f'W/"opds-{tag}"'
    modified = catalogue_updated(who.snapshot)
    headers = {
        "ETag": etag,
        "Last-Modified": format_datetime(modified, usegmt=True),
        "Cache-Control": KEYED_CACHE if who.keyed else PUBLIC_CACHE,
    }
    if not_modified(request, etag, modified):
        return Response(status_code=304, headers=headers)
    body, media_type = render()
    return Response(body if request.method != "HEAD" else b"", media_type=media_type, headers=headers)


def privately_validated(request: Request, body: bytes, media_type: str) -> Response:
    """A personal feed: never stored by shared caches; its ETag is its bytes'."""
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    headers = {"ETag": etag, "Cache-Control": "private, no-cache"}
    if not_modified(request, etag, None):
        return Response(status_code=304, headers=headers)
    return Response(body if request.method != "HEAD" else b"", media_type=media_type, headers=headers)


def render(feed: Feed) -> tuple[bytes, str]:
    settings = get_settings()
    return feeds.render_feed(feed, site_name=settings.site_name, site_uri=settings.origin), feed.media_type


def encoded_path(request: Request) -> str:
    """The request's path as a URI: each segment percent-encoded afresh from
    what the client sent, so a name's space or slash (`%2F`) stays escaped."""
    raw = request.scope.get("raw_path") or request.url.path.encode()
    return "/".join(quote(unquote(segment), safe="") for segment in raw.decode("latin-1").split("/"))


def feed_of(who: Asker, request: Request, title: str, kind: str, items: Sequence[Entry], **more) -> Feed:
    path = encoded_path(request)
    self_href = path + (f"?{request.url.query}" if request.url.query else "")
    return Feed(
        id=entries.feed_id(path.replace(who.urls.root, urls.ROOT, 1)), title=title, kind=kind,
        updated=catalogue_updated(who.snapshot), self_href=self_href, start_href=who.urls.start(),
        search_href=who.urls.search_description(), entries=items, icon="/favicon.ico", **more,
    )
