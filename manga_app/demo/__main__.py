"""Command line: ``python -m manga_app.demo OUT_DIR [--series N] [--seed S] [--now ISO]``.

Kept separate from the generator so importing the package never parses
arguments, and so ``make run`` has a one-line way to build the library.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from manga_app.demo.catalogue_data import CATALOGUE
from manga_app.demo.drawing import CJKFontNotFoundError
from manga_app.demo.generator import generate_demo_library


def _parse_now(text: str) -> datetime:
    """ISO 8601; a trailing ``Z`` and naive values both mean UTC."""
    cleaned = text.strip()
    if cleaned[-1:] in ("Z", "z"):
        cleaned = cleaned[:-1] + "+00:00"
    try:
        value = datetime.fromisoformat(cleaned)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not an ISO 8601 date-time: {text!r}") from exc
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)


def _series_count(text: str) -> int:
    value = int(text)
    if not 1 <= value <= len(CATALOGUE):
        raise argparse.ArgumentTypeError(f"must be between 1 and {len(CATALOGUE)}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m manga_app.demo",
        description="Write the invented demo manga library (CBZ + ComicInfo.xml + series.json).",
    )
    parser.add_argument("out_dir", type=Path, metavar="OUT_DIR", help="library root to write into")
    parser.add_argument("--series", type=_series_count, default=len(CATALOGUE), metavar="N",
                        help=f"number of series, 1..{len(CATALOGUE)} (default: all)")
    parser.add_argument("--seed", type=int, default=7, metavar="S", help="random seed (default: 7)")
    parser.add_argument("--now", type=_parse_now, default=None, metavar="ISO",
                        help="reference time for publication dates (default: current UTC time)")
    parser.add_argument("--workers", type=int, default=None, metavar="W",
                        help="worker processes (default: CPU count; 1 = no subprocesses)")
    parser.add_argument("--jpeg-only", action="store_true",
                        help="store every page as JPEG (default: PNG where it is smaller)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    started = time.perf_counter()
    try:
        paths = generate_demo_library(
            args.out_dir,
            series_count=args.series,
            seed=args.seed,
            now=args.now,
            workers=args.workers,
            image_format="jpeg" if args.jpeg_only else "auto",
        )
    except CJKFontNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - started
    size = sum(path.stat().st_size for path in paths)
    series = len({path.parent for path in paths})
    print(f"demo library: {series} series, {len(paths)} chapters, "
          f"{size / 1_000_000:.1f} MB in {args.out_dir} ({elapsed:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
