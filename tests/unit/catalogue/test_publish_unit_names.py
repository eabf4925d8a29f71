"""Published manifests are named as the reader's path names a unit: a chapter
`12.json`, a volume `3-vol.json`; never by the volume's internal key
(VOLUME_KEY + n), which is no public name. A catalogue published under the
old names is renamed by the next publish."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from sqlmodel import Session

from manga_app.catalogue.models import Chapter, Series
from manga_app.catalogue.publisher import MANIFEST_INDEX, publish_catalogue
from manga_app.core.crypto import decrypt_text
from manga_app.core.routes import VOLUME_KEY

BASE = "https://cdn.example.test/media/"
T0 = datetime(2024, 1, 1, tzinfo=UTC)
VOLUME_1 = (int(VOLUME_KEY) + 1) * 100  # number_hundredths of volume 1
VOLUME_2 = (int(VOLUME_KEY) + 2) * 100


def _series(session: Session, *hundredths: int) -> None:
    series = Series(slug="vols", title="巻の見本", title_key="巻の見本", cover_key="0" * 64, updated_at=T0)
    session.add(series)
    session.flush()
    for number in hundredths:
        session.add(Chapter(series_id=series.id, number_hundredths=number, published_at=T0))
    session.commit()


def _publish(session: Session, out: Path, key: str):
    return publish_catalogue(session=session, out_dir=out, content_key=key, media_base_url=BASE)


def _names(out: Path) -> list[str]:
    return sorted(p.name for p in (out / "manifests" / "vols").iterdir())


def _no_key_in_names(out: Path) -> None:
    for path in (out / "manifests").rglob("*"):
        digits = "".join(c if c.isdigit() else " " for c in path.name).split()
        assert all(int(d) < VOLUME_KEY for d in digits), f"{path} is named by an internal key"


def test_a_volume_manifest_is_named_n_vol_and_a_chapter_n(tmp_path, session, content_key):
    _series(session, 100, 1050, VOLUME_1, VOLUME_2)
    result = _publish(session, tmp_path, content_key)
    assert result.manifests == 4
    assert _names(tmp_path) == ["1-vol.json", "1.json", "10.5.json", "2-vol.json"]
    _no_key_in_names(tmp_path)
    index = (tmp_path / "manifests" / MANIFEST_INDEX).read_text(encoding="utf-8")
    assert str(int(VOLUME_KEY) + 1) not in index
    sealed = json.loads((tmp_path / "manifests" / "vols" / "1-vol.json").read_text())
    assert json.loads(decrypt_text(sealed["data"], content_key, sealed["iv"])) == []


def test_a_catalogue_published_under_the_keys_is_renamed_by_the_next_publish(tmp_path, session, content_key):
    # Given a catalogue as the publisher before the rename left it: a volume's
    # manifest named by its key, and an index (version 1) naming that file
    _series(session, 100, VOLUME_1)
    _publish(session, tmp_path, content_key)
    folder, index = tmp_path / "manifests" / "vols", tmp_path / "manifests" / MANIFEST_INDEX
    (folder / "1-vol.json").rename(folder / f"{int(VOLUME_KEY) + 1}.json")
    header, *lines = index.read_text(encoding="utf-8").splitlines()
    old_lines = [line.replace('"1-vol.json"', f'"{int(VOLUME_KEY) + 1}.json"') for line in lines]
    index.write_text("\n".join(['{"version": 1}', *old_lines]) + "\n", encoding="utf-8")
    # When it is published again, nothing else having changed
    _publish(session, tmp_path, content_key)
    # Then the volume has its public name, and the old file is gone
    assert _names(tmp_path) == ["1-vol.json", "1.json"]
    _no_key_in_names(tmp_path)
    # And a publish after that finds everything in place and rewrites nothing
    assert _publish(session, tmp_path, content_key).rewritten == 0
