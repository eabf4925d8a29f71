"""Write the demo library to disk: one folder per series, one CBZ per chapter.

Layout::

    OUT_DIR/<Series Title>/series.json
    OUT_DIR/<Series Title>/<Series Title> 第001話.cbz

Chapters are independent, so they are rendered in parallel worker processes
(drawing and image encoding are CPU-bound). Everything that ends up on disk
is a pure function of (catalogue, seed, now): pages are named naturally
(``001.jpg``, ``002.png``...), ZIP entries carry fixed timestamps and each
CBZ's modification time is set to the chapter's publication instant, which
is the only place sub-day precision survives (ComicInfo has Year/Month/Day).

Interior manga pages are flat greyscale line art, for which PNG is usually
several times smaller than JPEG; each page is stored in whichever format is
smaller (``image_format="auto"``), covers and webtoon strips in colour end up
as JPEG. ``image_format="jpeg"`` forces JPEG everywhere.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import re
import unicodedata
import zipfile
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

from PIL import Image

from manga_app.demo.comicinfo_writer import WrittenPage, comicinfo_xml, mylar_series_json
from manga_app.demo.drawing import find_cjk_font, render_page
from manga_app.demo.plan import ChapterPlan, SeriesPlan, plan_library

__all__ = ["ImageFormat", "generate_demo_library", "safe_filename"]

ImageFormat = Literal["auto", "jpeg"]

JPEG_QUALITY = 80

_UNSAFE = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*]')
# Half-width characters that Windows/macOS tools reject, mapped to the
# full-width forms Japanese titles use anyway.
_FULLWIDTH = str.maketrans(
    {"<": "＜", ">": "＞", ":": "：", '"': "＂", "/": "／", "\\": "＼", "|": "｜", "?": "？", "*": "＊"}
)


def safe_filename(name: str, max_bytes: int = 200) -> str:
    """Make ``name`` safe as a single path component on any common filesystem."""
    text = unicodedata.normalize("NFC", name).translate(_FULLWIDTH)
    text = _UNSAFE.sub("", text).strip().rstrip(".")
    while len(text.encode("utf-8")) > max_bytes:
        text = text[:-1]
    if text in ("", ".", ".."):
        text = "_"
    return text


@dataclass(frozen=True)
class _ChapterJob:
    chapter: ChapterPlan
    path: Path
    seed: int
    image_format: ImageFormat

    @property
    def cost(self) -> int:
        return sum(page.width * page.height for page in self.chapter.pages)


def _encode(image: Image.Image, image_format: ImageFormat) -> tuple[str, bytes]:
    """Encode as JPEG (quality ~80), or as PNG when that is smaller."""
    jpeg = io.BytesIO()
    image.save(jpeg, "JPEG", quality=JPEG_QUALITY, optimize=True)
    if image_format == "jpeg" or image.mode != "L":
        return "jpg", jpeg.getvalue()
    png = io.BytesIO()
    image.save(png, "PNG", compress_level=6)
    if png.tell() < jpeg.tell():
        return "png", png.getvalue()
    return "jpg", jpeg.getvalue()


def _zip_entry(name: str, moment: datetime) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=moment.timetuple()[:6])
    info.create_system = 3  # Unix, whatever the host: keeps bytes identical
    info.external_attr = 0o100644 << 16
    return info


def _write_chapter(job: _ChapterJob) -> Path:
    """Render, encode and archive one chapter; runs in a worker process."""
    chapter = job.chapter
    written: list[tuple[WrittenPage, bytes]] = []
    for page in chapter.pages:
        extension, data = _encode(render_page(chapter, page, job.seed), job.image_format)
        written.append((WrittenPage(page, f"{page.index + 1:03d}.{extension}", len(data)), data))
    xml = comicinfo_xml(chapter, [page for page, _ in written], job.seed)

    tmp = job.path.with_name(job.path.name + ".tmp")
    moment = chapter.published_at
    try:
        with zipfile.ZipFile(tmp, "w") as archive:
            archive.writestr(_zip_entry("ComicInfo.xml", moment), xml, zipfile.ZIP_DEFLATED, 9)
            for page, data in written:
                # Images are already compressed: the cheapest deflate level is enough.
                archive.writestr(_zip_entry(page.filename, moment), data, zipfile.ZIP_DEFLATED, 1)
        os.replace(tmp, job.path)  # never leave a half-written CBZ for the importer
    finally:
        tmp.unlink(missing_ok=True)
    stamp = moment.timestamp()
    os.utime(job.path, (stamp, stamp))
    return job.path


def _run(jobs: list[_ChapterJob], workers: int) -> None:
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            _write_chapter(job)
        return
    # forkserver: safe even when called from a threaded host process.
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    ordered = sorted(jobs, key=lambda job: job.cost, reverse=True)  # big chapters first
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context) as pool:
        for _ in pool.map(_write_chapter, ordered, chunksize=2):
            pass


def _series_dir(out_dir: Path, series_plan: SeriesPlan) -> Path:
    return out_dir / safe_filename(series_plan.series.title)


def chapter_path(out_dir: Path, series_plan: SeriesPlan, chapter: ChapterPlan) -> Path:
    """``OUT_DIR/<Series>/<Series> 第NNN話.cbz``."""
    title = safe_filename(series_plan.series.title)
    return _series_dir(out_dir, series_plan) / safe_filename(f"{title} {chapter.file_stem}.cbz")


def _iter_jobs(
    out_dir: Path, plans: Iterable[SeriesPlan], seed: int, image_format: ImageFormat
) -> Iterable[_ChapterJob]:
    for series_plan in plans:
        for chapter in series_plan.chapters:
            path = chapter_path(out_dir, series_plan, chapter)
            yield _ChapterJob(chapter, path, seed, image_format)


def generate_demo_library(
    out_dir: Path,
    *,
    series_count: int = 40,
    seed: int = 7,
    now: datetime | None = None,
    workers: int | None = None,
    image_format: ImageFormat = "auto",
) -> list[Path]:
    """Generate the invented demo library under ``out_dir``; return the CBZ paths.

    ``now`` (default: the current UTC time; naive means UTC) anchors every
    publication date, so the same ``seed`` and ``now`` give the same files.
    Existing files with the same names are replaced; nothing else in
    ``out_dir`` is touched. ``workers`` defaults to the CPU count.
    Raises :class:`~manga_app.demo.drawing.CJKFontNotFoundError` early if
    no Japanese font is installed.
    """
    find_cjk_font()  # fail fast, before forking workers
    if image_format not in ("auto", "jpeg"):
        raise ValueError(f"image_format must be 'auto' or 'jpeg', got {image_format!r}")
    moment = now if now is not None else datetime.now(timezone.utc)
    plans = plan_library(now=moment, seed=seed, series_count=series_count)

    out_dir = Path(out_dir)
    for series_plan in plans:
        folder = _series_dir(out_dir, series_plan)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "series.json").write_bytes(mylar_series_json(series_plan))

    jobs = list(_iter_jobs(out_dir, plans, seed, image_format))
    _run(jobs, workers if workers is not None else (os.cpu_count() or 1))

    for series_plan in plans:  # folders "last modified" when their newest chapter came out
        stamp = series_plan.last_published.timestamp()
        os.utime(_series_dir(out_dir, series_plan), (stamp, stamp))
    return [job.path for job in jobs]
