"""PDF chapters: scanned pages at native resolution, other pages rendered, hostile PDFs refused.

Every PDF is made here: image-only ones by Pillow, text and hostile ones by hand,
encrypted ones by qpdf (Debian's qpdf), many-paged ones by pypdfium2.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from manga_app.catalogue.archives import ArchiveError, open_chapter
from manga_app.catalogue.importer import import_source

from .checks import chapter_rows


def _scanned_pdf(path: Path, count: int = 3, size=(1200, 1800)) -> list[Image.Image]:
    path.parent.mkdir(parents=True, exist_ok=True)
    pages = [Image.new("RGB", size, (30 * i, 100, 200 - 30 * i)) for i in range(count)]
    pages[0].save(path, format="PDF", save_all=True, append_images=pages[1:], resolution=150)
    return pages


def write_pdf(path: Path, objects: list[bytes]) -> Path:
    """A PDF of the given objects (object 1 is the catalog), with a correct xref table."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)  # fmt: skip
    path.write_bytes(bytes(out))
    return path


def _stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def _text_pdf(path: Path) -> Path:
    text = b"BT /F1 48 Tf 72 600 Td (Chapter one) Tj ET"
    return write_pdf(path, [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        _stream(text),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ])  # fmt: skip


def _read_all(path: Path) -> list[bytes]:
    with open_chapter(path, "archive") as source:
        return [source.read(name) for name in source.pages]


def test_scanned_pages_are_taken_at_their_native_resolution(tmp_path: Path):
    sources = _scanned_pdf(tmp_path / "c.pdf")
    pages = _read_all(tmp_path / "c.pdf")
    assert len(pages) == 3
    for data, source in zip(pages, sources, strict=True):
        with Image.open(io.BytesIO(data)) as page:
            assert page.format == "JPEG" and page.size == (1200, 1800)
            assert max(abs(a - b) for a, b in zip(page.getpixel((600, 900)),
                                                  source.getpixel((600, 900)))) < 8  # fmt: skip


def test_pages_that_are_not_one_image_are_rendered_1600_px_high(tmp_path: Path):
    [data] = _read_all(_text_pdf(tmp_path / "t.pdf"))
    with Image.open(io.BytesIO(data)) as page:
        # PDFium rounds the scaled size up
        assert abs(page.height - 1600) <= 1 and abs(page.width - 420 * 1600 / 595) <= 1
        assert page.convert("L").getextrema() == (0, 255)  # black text on white paper


def test_a_pdf_alone_in_a_folder_is_imported(tmp_path: Path, engine, media):
    _scanned_pdf(tmp_path / "src" / "作品" / "作品 第3話.pdf", count=2, size=(300, 450))
    report = import_source(tmp_path / "src", engine=engine, media=media)
    assert report.failed == [] and len(report.imported) == 1
    assert chapter_rows(engine) == [("作品", 300, 2)]


def test_an_encrypted_pdf_is_refused(tmp_path: Path):
    qpdf = shutil.which("qpdf")
    assert qpdf, "qpdf is missing: run scripts/ensure_system_packages.sh --test"
    _scanned_pdf(tmp_path / "plain.pdf", count=1, size=(100, 150))
    subprocess.run([qpdf, "--encrypt", "user", "owner", "256", "--", str(tmp_path / "plain.pdf"),
                    str(tmp_path / "secret.pdf")], check=True)  # fmt: skip
    with pytest.raises(ArchiveError, match="the PDF is encrypted"):
        _read_all(tmp_path / "secret.pdf")


def test_a_pdf_of_ten_thousand_pages_is_refused(tmp_path: Path):
    document = pdfium.PdfDocument.new()
    for _ in range(10_000):
        document.new_page(100, 150)
    document.save(str(tmp_path / "many.pdf"))
    document.close()
    with pytest.raises(ArchiveError, match=r"too many pages \(10000 > 5000\)"):
        _read_all(tmp_path / "many.pdf")


def test_a_page_of_fifty_thousand_points_square_is_refused(tmp_path: Path):
    document = pdfium.PdfDocument.new()
    document.new_page(50_000, 50_000)
    document.save(str(tmp_path / "huge.pdf"))
    document.close()
    with pytest.raises(ArchiveError, match="larger than a PDF page can be"):
        _read_all(tmp_path / "huge.pdf")


def test_an_image_claiming_a_billion_pixels_is_refused_before_it_is_decoded(tmp_path: Path):
    # A 40,000 x 40,000 grey image whose zeros deflate to almost nothing
    pixels = zlib.compress(bytes(1024 * 1024))  # only the first rows exist
    write_pdf(tmp_path / "bomb.pdf", [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 600] /Contents 4 0 R "
        b"/Resources << /XObject << /Im1 5 0 R >> >> >>",
        _stream(b"q 600 0 0 600 0 0 cm /Im1 Do Q"),
        _stream(pixels, b"/Type /XObject /Subtype /Image /Width 40000 /Height 40000 "
                b"/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode"),
    ])  # fmt: skip
    with pytest.raises(ArchiveError, match="decompression bomb refused"):
        _read_all(tmp_path / "bomb.pdf")
