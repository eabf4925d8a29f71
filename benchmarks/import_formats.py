"""Import throughput per chapter format, for bench_import (issue 16).

The same 48 pages (1200 x 1800 JPEG scans drawn by the demo generator,
upscaled) are packed as CBZ, CB7, PDF, EPUB and a folder of images, and each
is imported into an empty store with the import's own worker processes. RAR
cannot be written with free tools; it is read by the same libarchive path as 7z.
Pages/s counts wall time; CPU ms/page (this process and its workers) wanders
much less on a busy machine. The store makes the JPEG and WebP copies only
(`import --defer-avif`), the derivatives issue 16's "before" was measured
with: its target is about reading the formats, and what the AVIF copies add
to an import is issue 37's bar, measured by bench_bytes on the same import.
"""

from __future__ import annotations

import io
import shutil
import time
import zipfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from PIL import Image

CHAPTERS = 6
PAGES_PER_CHAPTER = 8
PAGE_SIZE = (1200, 1800)
# Issue 16: about 5.5 pages/s for 1200x1800 JPEG CBZs on these 2 cores before it.
BEFORE_PAGES_PER_S = 5.5


def run_formats(root: Path, workers: int, meter) -> list[dict]:
    from benchmarks.bench_import import _import

    pages = _pages(root / "demo")
    rows = []
    for label, write in _WRITERS.items():
        library = root / f"lib-{label}"
        for chapter in range(CHAPTERS):
            chunk = pages[chapter * PAGES_PER_CHAPTER : (chapter + 1) * PAGES_PER_CHAPTER]
            write(library / "作品", f"作品 第{chapter + 1}話", chunk)
        best_wall, best_cpu = float("inf"), float("inf")
        for attempt in range(2):
            with meter() as cpu:
                wall = _import(root / f"run-{label}-{attempt}", library, workers, avif=False)
            best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu.seconds)
        count = len(pages)
        rows.append({"format": label, "pages": count, "pages_per_s": round(count / best_wall, 1),
                     "cpu_ms_per_page": round(best_cpu / count * 1000, 1)})
        print(f"   {label}: {count / best_wall:.1f} pages/s, "
              f"{best_cpu / count * 1000:.0f} ms CPU/page", flush=True)
        shutil.rmtree(library)
    return rows


def _pages(folder: Path) -> list[bytes]:
    from manga_app.demo import generate_demo_library

    archives = generate_demo_library(folder, series_count=2, workers=1,
                                     now=datetime(2025, 1, 1, 12, 0, tzinfo=UTC))
    pages: list[bytes] = []
    for archive in sorted(archives):
        with zipfile.ZipFile(archive) as handle:
            for name in sorted(n for n in handle.namelist() if not n.endswith(".xml")):
                image = Image.open(io.BytesIO(handle.read(name))).convert("RGB")
                out = io.BytesIO()
                image.resize(PAGE_SIZE, Image.Resampling.LANCZOS).save(out, "JPEG", quality=90)
                pages.append(out.getvalue())
                if len(pages) == CHAPTERS * PAGES_PER_CHAPTER:
                    return pages
    raise RuntimeError("the demo library has too few pages")


def _cbz(folder: Path, stem: str, pages: list[bytes]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(folder / f"{stem}.cbz", "w") as archive:
        for index, data in enumerate(pages):
            archive.writestr(f"{index:03d}.jpg", data)


def _cb7(folder: Path, stem: str, pages: list[bytes]) -> None:
    import libarchive

    folder.mkdir(parents=True, exist_ok=True)
    with libarchive.file_writer(str(folder / f"{stem}.cb7"), "7zip") as archive:
        for index, data in enumerate(pages):
            archive.add_file_from_memory(f"{index:03d}.jpg", len(data), data)


def _pdf(folder: Path, stem: str, pages: list[bytes]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    images = [Image.open(io.BytesIO(data)) for data in pages]
    images[0].save(folder / f"{stem}.pdf", "PDF", save_all=True, append_images=images[1:],
                   resolution=150)


def _epub(folder: Path, stem: str, pages: list[bytes]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    items = "".join(f'<item id="p{i}" href="p{i}.jpg" media-type="image/jpeg"/>'
                    for i in range(len(pages)))
    spine = "".join(f'<itemref idref="p{i}"/>' for i in range(len(pages)))
    opf = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
           '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>作品</dc:title>'
           f'</metadata><manifest>{items}</manifest>'
           f'<spine page-progression-direction="rtl">{spine}</spine></package>')
    container = ('<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:'
                 'container" version="1.0"><rootfiles><rootfile full-path="content.opf"/>'
                 '</rootfiles></container>')
    with zipfile.ZipFile(folder / f"{stem}.epub", "w") as archive:
        archive.writestr("mimetype", "application/epub+zip")
        archive.writestr("META-INF/container.xml", container)
        archive.writestr("content.opf", opf)
        for index, data in enumerate(pages):
            archive.writestr(f"p{index}.jpg", data)


def _folder(folder: Path, stem: str, pages: list[bytes]) -> None:
    chapter = folder / stem
    chapter.mkdir(parents=True, exist_ok=True)
    for index, data in enumerate(pages):
        (chapter / f"{index:03d}.jpg").write_bytes(data)


_WRITERS: dict[str, Callable[[Path, str, list[bytes]], None]] = {
    "CBZ": _cbz, "CB7": _cb7, "PDF": _pdf, "EPUB": _epub, "folder": _folder,
}


# (label, Pillow format, save options) of the encoders compared for derivatives.
ENCODERS = [
    ("WebP q80 method 2", "WEBP", {"quality": 80, "method": 2}),
    ("WebP q80 method 0", "WEBP", {"quality": 80, "method": 0}),
    ("JPEG q80 optimized", "JPEG", {"quality": 80, "optimize": True}),
    ("AVIF q60 speed 10", "AVIF", {"quality": 60, "speed": 10}),
]


def compare_encoders(root: Path, count: int = 6) -> list[dict]:
    """CPU ms and KiB per page of each encoder at the reader and data-saver widths."""
    from manga_app.catalogue.page_images import READER_WIDTH, SAVER_WIDTH, derivative_size

    frames = [Image.open(io.BytesIO(data)).convert("RGB") for data in _pages(root / "enc")[:count]]
    rows = []
    for label, fmt, options in ENCODERS:
        row: dict = {"encoder": label}
        for width in (READER_WIDTH, SAVER_WIDTH):
            sized = [frame.resize(derivative_size(*frame.size, width)) for frame in frames]
            best, size = float("inf"), 0
            for _ in range(2):
                started = time.process_time()
                outputs = []
                for frame in sized:
                    out = io.BytesIO()
                    frame.save(out, fmt, **options)
                    outputs.append(len(out.getvalue()))
                best = min(best, time.process_time() - started)
                size = sum(outputs)
            row[f"ms_{width}"] = round(best / count * 1000, 1)
            row[f"kib_{width}"] = round(size / count / 1024, 1)
        rows.append(row)
        print(f"   {label}: " + ", ".join(f"{k} {v}" for k, v in row.items() if k != "encoder"),
              flush=True)
    return rows
