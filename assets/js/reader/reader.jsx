// The interactive reader. Python gives it the chapter's pages, the visitor's
// settings and where the series' history would resume; it keeps the position
// of every chapter in the browser (positions.js), reports it back
// (onProgress), and reports setting changes (onSettingsChange) and the
// approaching end (onNearEnd).
//
// The server renders it too (manga_app/ssr) and the browser hydrates that
// HTML, so its first render reads nothing the server cannot know: no window,
// no localStorage. What only the browser knows (its own position in the
// chapter, "open at the end") is applied right after hydration.
import React, { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import * as ReactDOM from "react-dom";
import { useLocation } from "react-router";
import { buildUnits, lastShown, loadOrder, pairingOffset, unitLabel, unitOfPage } from "./layout.js";
import { useReaderKeys } from "./controls.js";
import { useHydrated } from "../hydrated.js";
import { avifKnown, avifShown, shownFile } from "../image_formats.js";
import { useDenseChoice } from "./dense.js";
import { useNearEnd, useOpeningReports, useProgressReporter } from "./hooks.js";
import { useFirstLoaded, useLoadQueue } from "./loading.js";
import { useReaderTouch, useTaps } from "./touch.js";
import { useZoom } from "./zooming.js";
import { useResumeHold, useStripTracking } from "./strip.js";
import { useStageScroll } from "./stage.js";
import { useMoves } from "./moves.js";
import { rememberFirstPage, startPosition } from "./positions.js";
import { PagedStage, VerticalStrip } from "./pages.jsx";
import { EndCard } from "./end_card.jsx";
import { Overlay } from "./overlay.jsx";
import { SettingsSheet } from "./settings.jsx";

const OVERLAY_AUTO_HIDE_MS = 3000;

function sameStart(a, b) {
  return a.page === b.page && Math.abs(a.offset - b.offset) < 0.001;
}

// `loadedPath` is the path Python loaded these props for. A tab's state from
// an earlier visit arrives again when the app connects, before this page's
// own load: props of another path are never drawn; until this path's arrive
// (moving to another chapter in the app) the reader shows its children, the
// loading panel. Each opening of a chapter (a new history entry) is a new
// reader: position, preloads and timers restart.
export function MangaReader(props) {
  const location = useLocation();
  const drawn = useRef(null);
  if (props.loadedPath === location.pathname) drawn.current = props;
  if (!drawn.current || drawn.current.loadedPath !== location.pathname) return props.children ?? null;
  return <Reader key={location.key} {...drawn.current} />;
}

function Reader(props) {
  const {
    pages = [], altPrefix = "", heading = "", seriesTitle = "", seriesSlug = "", seriesUrl = "/", chapterUrl = "",
    chapterNumber = "", prevUrl = "", prevLabel = "", nextUrl = "", nextLabel = "", chapters = [],
    mode = "paged", direction = "rtl", directionChoice = "auto", settings = {}, preload = 0,
    initialPage = 0, initialOffset = 0, initialAt = 0, nextWarm = [], viewId = 0, defaultOffset = false,
    seriesComplete = false, endPicks = [], endPicksAlsoRead = false, endPhrases = {},
    likes = "0", liked = false, likeKey = "", endFollow = null, firstScreen = "",
    onProgress, onSettingsChange, onNearEnd, onLike, onEndSeen,
  } = props;
  // Back from a chapter's first page opens the one before at its end.
  const location = useLocation();
  const inBrowser = useHydrated();
  const total = pages.length;
  const storeKey = seriesSlug && chapterNumber ? `${seriesSlug}/${chapterNumber}` : "";
  // Where this opening starts, decided once: this browser's position in the
  // chapter, or the history's (the server's guess while hydrating, then
  // corrected below).
  const browserStart = () =>
    location.state && location.state.openAt === "end"
      ? { page: Math.max(total - 1, 0), offset: 0 }
      : startPosition(storeKey, { page: initialPage, offset: initialOffset, at: initialAt }, total);
  const [start, setStart] = useState(() =>
    inBrowser ? browserStart() : { page: Math.min(Math.max(initialPage, 0), Math.max(total - 1, 0)), offset: initialOffset },
  );
  const [page, setPage] = useState(start.page);
  // Each chapter opens on its page, not under the menu: a tap in the middle
  // (or Esc) brings the menu when the reader wants it.
  const [overlay, setOverlay] = useState(false);
  // The overlay is made once the app runs (its controls need it), not by the
  // server: its Japanese text was most of the first frame's layout, and that
  // frame is the one that paints the page image (issue 15, reader LCP); even
  // hidden, its form controls cost the browser's form scan at
  // DOMContentLoaded (about 8 ms of main thread before the page was drawn).
  const [started, setStarted] = useState(false);
  useEffect(() => setStarted(true), []);
  const [sheetOpen, setSheetOpen] = useState(false);
  // Resuming down the strip: the pages above get their images only once the
  // resumed position holds. The router resets the window to the top for a
  // moment after mounting, and lazy images would load everything up there.
  const [settled, setSettled] = useState(() => !(mode === "vertical" && start.page > 0));
  // The overlay stays while the visitor's pointer or focus is on it.
  const [overlayHeld, setOverlayHeld] = useState(false);
  const imageRefs = useRef([]);
  const stageRef = useRef(null);
  // Where the visitor is: page and the part of it above the top edge (0..1).
  const position = useRef(start);
  const sendProgress = useCallback(
    (index, offset, at) => onProgress && onProgress(viewId, seriesSlug, chapterNumber, index, offset, at),
    [onProgress, viewId, seriesSlug, chapterNumber],
  );
  const report = useProgressReporter(storeKey, sendProgress, !!settings.saver);
  const fit = settings.fit || "auto";
  // The one-page offset: the reader's own choice, else the chapter's.
  const offset = pairingOffset(settings.offset, defaultOffset);
  const units = useMemo(() => buildUnits(pages, !!settings.double, offset), [pages, settings.double, offset]);
  const track = useCallback(
    (index, within) => {
      // A pair on screen stands for its second page: its last pair reads a chapter.
      const reached = mode === "paged" ? lastShown(units, index) : index;
      position.current = { page: reached, offset: within };
      report(reached, within);
    },
    [report, mode, units],
  );
  const unitIndex = unitOfPage(units, page);
  const srcOf = useCallback((item) => (settings.saver ? item.saver_url : item.url), [settings.saver]);
  const [opened] = useState(start.page);
  const { avifOf, warmAvifOf } = useDenseChoice({
    inBrowser, cookie: firstScreen, pages, opened, saver: !!settings.saver, fit, mode, double: !!settings.double,
  });
  // Whether the <picture>s show AVIF (null until asked): the files this
  // script loads ahead are the ones they will show.
  const [avifOk, setAvifOk] = useState(avifKnown);
  useEffect(() => {
    avifShown().then(setAvifOk);
  }, []);
  const fileOf = useCallback((item) => shownFile(srcOf(item), avifOf(item), avifOk), [srcOf, avifOf, avifOk]);
  const rootRef = useRef(null);
  const contentRef = useRef(null);
  const { zoom, zoomer } = useZoom({ mode, rootRef, stageRef, contentRef, page });
  // A zoomed page is the full-size image, never the data saver's, enlarged.
  const shownSrc = useCallback((item) => (zoom > 1 ? item.url : srcOf(item)), [zoom, srcOf]);
  const shownAvif = useCallback((item) => avifOf(item, zoom > 1), [zoom, avifOf]);
  const altOf = useCallback((index) => `${altPrefix} ${index + 1}ページ目`, [altPrefix]);

  const { stripTop, scrollStripTo, makeRoom, showPage, act } = useMoves({
    mode, total, units, unitIndex, pages, srcOf: fileOf, track, setPage, setOverlay, zoomer, imageRefs, stageRef, prevUrl, nextUrl,
  });

  // ---- keyboard, taps and swipes ------------------------------------
  const closeSheet = useCallback(() => setSheetOpen(false), []);
  const leaveMenu = useCallback(() => {
    setOverlayHeld(false);
    setOverlay(false);
  }, []);
  useReaderKeys({ act, direction, mode, stageRef, sheetOpen, closeSheet, leaveMenu });
  const { consumeSwipe } = useReaderTouch({ contentRef, stageRef, mode, direction, act, zoomer });
  const onClick = useTaps({ act, direction, tapSwap: !!settings.tap_swap, zoomer, consumeSwipe });

  // ---- position tracking and resume ----------------------------------
  useLayoutEffect(() => {
    // Hydrated from the server's guess: this browser may know better.
    const chosen = browserStart();
    if (sameStart(chosen, start)) return;
    setStart(chosen);
    setPage(chosen.page);
    setSettled(!(mode === "vertical" && chosen.page > 0));
    position.current = chosen;
    // Once, before the mode's own first layout below reads the position.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const modeShown = useRef(false);
  useLayoutEffect(() => {
    // Resume (and every mode switch) starts where the visitor is.
    const { page: index, offset } = position.current;
    if (modeShown.current) setSettled(true);
    modeShown.current = true;
    if (mode === "vertical") {
      if (index > 0 || offset > 0) scrollStripTo(Math.min(index, total - 1), offset);
    } else if (stageRef.current && index < total) {
      const stage = stageRef.current;
      stage.scrollTop = offset * stage.scrollHeight;
      if (direction === "rtl") stage.scrollLeft = stage.scrollWidth;
    }
    // Only on mount and mode switches: later moves come from the visitor.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mode]);

  useOpeningReports({ report, sendProgress, viewId, position });

  const settle = useCallback(() => setSettled(true), []);
  useResumeHold(
    () => mode === "vertical" && (position.current.page > 0 || position.current.offset > 0),
    () => stripTop(position.current.page, position.current.offset),
    settle,
  );
  const onStripPosition = useCallback(
    (index, offset) => {
      setPage(index);
      track(index, offset);
    },
    [track],
  );
  const hideOverlay = useCallback(() => setOverlay(false), []);
  const restoreStrip = useCallback(() => scrollStripTo(position.current.page, position.current.offset), [scrollStripTo]);
  useStripTracking({
    active: mode === "vertical",
    imageRefs,
    total,
    onPosition: onStripPosition,
    onMoved: hideOverlay,
    restore: restoreStrip,
  });

  const onStageScroll = useStageScroll({ mode, stageRef, page, total, direction, position, track, layout: [fit, settings.double, offset] });

  // ---- overlay, preloading, the next chapter ---------------------------
  useEffect(() => {
    if (!overlay || sheetOpen || overlayHeld) return undefined;
    const timer = setTimeout(() => setOverlay(false), OVERLAY_AUTO_HIDE_MS);
    return () => clearTimeout(timer);
  }, [overlay, sheetOpen, overlayHeld, page]);

  const [firstLoaded, onPriorityLoad] = useFirstLoaded(rootRef, start.page);

  useEffect(() => {
    // A new quality choice: the server preloads that one from now on.
    rememberFirstPage(storeKey, position.current.page, !!settings.saver);
  }, [storeKey, settings.saver]);

  // The first page is named at the very top of the server's HTML: React
  // writes a high-priority image preload before the head's stylesheet, so
  // the browser asks for it before parsing the reader's 20 KB of inline
  // rules. Only the server's render (and the hydration of it) names it: a
  // preload made later would be a request the load queue below does not
  // know of and cannot cancel. No other page is preloaded by a link: named
  // in the server's HTML too, the next page shared a phone's link with the
  // first one, whose download took 520 ms against 340 ms on a static page
  // showing it (slow 4G, benchmarks/reader_lcp.py); the queue asks for it
  // once the first page is in. A page with an AVIF preloads that, typed: a
  // browser without AVIF skips the link (its <img> still loads the
  // fallback), one with it fetches the very file its <picture> takes.
  if (!inBrowser && opened < total) {
    const first = pages[opened];
    ReactDOM.preload(avifOf(first) || srcOf(first), { as: "image", fetchPriority: "high", type: avifOf(first) ? "image/avif" : undefined });
  }
  // In reading order from the page on screen, then the next chapter's first pages.
  const wanted = loadOrder(Math.min(page, total - 1), total, preload).map((index) => fileOf(pages[index]));
  const warm = nextWarm.map((image) => shownFile(image.src, warmAvifOf(image), avifOk));
  makeRoom.current = useLoadQueue([...wanted, ...warm], firstLoaded && avifOk !== null, warm);

  useNearEnd({ page, total, nextUrl, onNearEnd });

  const endCard = (
    <EndCard
      {...{ heading, nextUrl, nextLabel, seriesUrl, seriesTitle, seriesSlug, chapterNumber, chapters, likes, liked, likeKey, onLike }}
      complete={seriesComplete}
      picks={endPicks}
      picksAlsoRead={endPicksAlsoRead}
      phrases={endPhrases}
      onSeen={onEndSeen}
      follow={endFollow}
    />
  );

  return (
    <div
      ref={rootRef}
      className="reader-root"
      data-mode={mode}
      data-direction={direction}
      data-overlay={overlay || sheetOpen ? "shown" : "hidden"}
      data-page={Math.min(page, total - 1)}
      data-at-end={page >= total || (mode === "paged" && unitIndex >= units.length) ? "true" : "false"}
      data-zoomed={zoom > 1 ? "true" : "false"}
      // Keys, taps and swipes work from here on (the server's HTML has no handlers).
      data-interactive={inBrowser ? "true" : undefined}
    >
      <div className="reader-content" ref={contentRef} onClick={onClick}>
        {mode === "vertical" ? (
          <VerticalStrip
            pages={pages}
            fit={fit}
            srcOf={shownSrc}
            avifOf={shownAvif}
            altOf={altOf}
            zoom={zoom}
            priorityPage={start.page}
            holdAbove={!settled}
            imageRefs={imageRefs}
            onPriorityLoad={onPriorityLoad}
            endCard={endCard}
          />
        ) : (
          <PagedStage
            pages={pages}
            unit={unitIndex < units.length ? units[unitIndex] : null}
            fit={fit}
            direction={direction}
            srcOf={shownSrc}
            avifOf={shownAvif}
            altOf={altOf}
            zoom={zoom}
            priorityPage={start.page}
            onPriorityLoad={onPriorityLoad}
            stageRef={stageRef}
            onScroll={onStageScroll}
            endCard={endCard}
          />
        )}
      </div>
      {started ? (
        <Overlay
          visible={overlay || sheetOpen}
          chapterUrl={chapterUrl}
          chapters={chapters}
          prevUrl={prevUrl}
          prevLabel={prevLabel}
          nextUrl={nextUrl}
          nextLabel={nextLabel}
          page={Math.min(page, total - 1)}
          pageLabel={mode === "paged" && unitIndex < units.length ? unitLabel(units[unitIndex]) : `${Math.min(page + 1, total)}`}
          total={total}
          sliderRtl={mode === "paged" && direction === "rtl"}
          onSlide={(index) => showPage(index)}
          onOpenSettings={() => setSheetOpen(true)}
          onReveal={() => setOverlay(true)}
          onHold={setOverlayHeld}
          saver={!!settings.saver}
        />
      ) : null}
      {zoom > 1 ? (
        <button type="button" className="reader-zoom-reset" onClick={zoomer.reset}>
          {Math.round(zoom * 100)}% ・ 全体表示
        </button>
      ) : null}
      {sheetOpen ? (
        <SettingsSheet
          settings={settings}
          mode={mode}
          directionChoice={directionChoice}
          onChange={(change) => onSettingsChange && onSettingsChange(change)}
          onClose={() => setSheetOpen(false)}
        />
      ) : null}
    </div>
  );
}
