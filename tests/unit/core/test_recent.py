"""The recent-values cache: kept for its seconds, at most its size, oldest out first."""

from __future__ import annotations

from manga_app.core.recent import MISSING, Recent


def test_a_value_is_kept_for_its_seconds_then_computed_again():
    cache = Recent(size=10, seconds=30)
    cache.put("shingeki", "進撃の巨人", now=100.0)
    assert cache.get("shingeki", now=129.9) == "進撃の巨人"
    assert cache.get("shingeki", now=130.0) is MISSING
    assert cache.get("unknown", now=100.0) is MISSING


def test_the_oldest_values_leave_first_when_full():
    cache = Recent(size=2, seconds=30)
    for n, key in enumerate(("a", "b", "c")):
        cache.put(key, n, now=0.0)
    assert (cache.get("a", 1.0), cache.get("b", 1.0), cache.get("c", 1.0)) == (MISSING, 1, 2)
    assert len(cache) == 2
