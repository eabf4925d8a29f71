"""Search-box suggestions per keystroke over 100,000 synthetic series, against a full results page for the same keystrokes (issue 32).

Each sampled series is typed as a visitor types it, one character at a
time: its kana reading (1-6 characters), its romaji (1-8) and its title's
first kanji (1-3); every prefix is one keystroke's question. Per keystroke,
in the backend process, what `/suggest.json` does (web/suggest.py): clean
and fold the text, search the held index in relevance order for 8 items,
and match the found series' authors by name and reading. No database is
touched. Authors' readings are generated once per name and kept
(search/suggest.py), so the same keystrokes are timed twice: the first
pass pays them ("first pass"), the second is what typing costs once they
are known. Baseline, same run and same keystrokes: the search page's own
as-you-type answer (a first page of 24 results and their cards), which the
site already gives within its 5 ms target. In the browser the box asks
after a 120 ms pause in typing (assets/js/suggest.jsx), so a word typed at
a normal pace costs one question, not one per character."""

from __future__ import annotations

import gc
import random
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.bench_search import SERIES, synthetic_catalogue

TYPED_SERIES = 300
# Suggestions must cost no more than the search page's own as-you-type
# answer to the same keystrokes (measured in the same run: the shared
# machine's load moves both alike).
TARGET_RATIO = 1.0


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def keystrokes(items: list, rnd: random.Random) -> list[str]:
    typed = []
    for item in rnd.sample(items, TYPED_SERIES):
        hiragana, romaji = item.readings[0], item.readings[1].replace(" ", "")
        typed += [hiragana[:n] for n in range(1, 7)] + [romaji[:n] for n in range(1, 9)] + [item.title[:n] for n in range(1, 4)]
    return typed


def run(results_dir: Path) -> dict:
    from manga_app.read_models.compact import Catalogue
    from manga_app.search.index import SearchIndex
    from manga_app.search.normalize import clean_query, query_terms
    from manga_app.search.query import Query
    from manga_app.search.suggest import suggestions
    from manga_app.cards.records import card_for

    rnd = random.Random(32)
    items = synthetic_catalogue(SERIES, rnd)
    index = SearchIndex(Catalogue.of(items))
    gc.freeze()  # as search/held_index.py does after every build
    typed = keystrokes(items, rnd)
    passes: list[list[float]] = []
    counts: list[int] = []
    for _ in range(2):
        timings = []
        for text in typed:
            started = time.perf_counter()
            found = suggestions(index, text)
            timings.append((time.perf_counter() - started) * 1000)
            counts.append(len(found))
        passes.append(timings)
    now = datetime.now(UTC)
    page_ms = []
    for text in typed:
        started = time.perf_counter()
        q = clean_query(text)
        terms = query_terms(q)
        result = index.search(Query(q=q), terms)
        [card_for(item, now=now, terms=terms) for item in result.items]
        page_ms.append((time.perf_counter() - started) * 1000)
    first, known = passes
    p95 = _percentile(known, 0.95)
    figures = [
        {"figure": "suggestions per keystroke p50 (100k series)", "value": round(statistics.median(known), 3), "unit": "ms"},
        {"figure": "suggestions per keystroke p95 (100k series)", "value": round(p95, 3), "unit": "ms"},
        {"figure": "suggestions per keystroke max", "value": round(max(known), 3), "unit": "ms"},
        {"figure": "suggestions p95, first pass (authors' readings made)", "value": round(_percentile(first, 0.95), 3),
         "unit": "ms"},
        {"figure": "results page per keystroke p95 (same keystrokes)", "value": round(_percentile(page_ms, 0.95), 3),
         "unit": "ms"},
        {"figure": "suggestions p95 / results page p95", "value": round(p95 / _percentile(page_ms, 0.95), 2), "unit": "x",
         "target": f"<= {TARGET_RATIO}", "pass": p95 <= TARGET_RATIO * _percentile(page_ms, 0.95)},
        {"figure": "suggestions p50 / results page p50", "value": round(statistics.median(known) / statistics.median(page_ms), 2),
         "unit": "x"},
        {"figure": "keystrokes with a suggestion", "value": round(100 * sum(1 for c in counts if c) / len(counts), 1),
         "unit": "%"},
    ]
    return {"figures": figures, "keystrokes": len(typed)}
