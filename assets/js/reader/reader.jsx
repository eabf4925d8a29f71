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
import React, { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useLocation, useNavigate } from "react-router";
import { buildUnits, lastShown, loadOrder, pairingOffset, unitLabel, unitOfPage } from "./layout.js";
import { useReaderKeys } from "./controls.js";
import { useProgressReporter } from "./hooks.js";
import { useLoadQueue } from "./loading.js";
import { useReaderTouch, useTaps } from "./touch.js";
import { useZoom } from "./zooming.js";
import { keyZoom } from "./zoom.js";
import { STRIP_LINE, useResumeHold, useStripTracking } from "./strip.js";
import { useStageScroll } from "./stage.js";
import { rememberFirstPage, startPosition } from "./positions.js";
import { PagedStage, VerticalStrip } from "./pages.jsx";
import { EndCard } from "./end_card.jsx";
import { Overlay } from "./overlay.jsx";
import { SettingsSheet } from "./settings.jsx";

const OVERLAY_AUTO_HIDE_MS = 3000;
// The next chapter's first pages are fetched from this share of the chapter on.
const NEAR_END_SHARE = 0.75;
// Tap to scroll in the vertical strip: most of a screen, keeping some context.
const STRIP_STEP = 0.85;
// Arrow keys inside a tall page of the paged reader.
const LINE_STEP_PX = 60;
// A preload fallback in case the first page's load event never comes.
const PRELOAD_FALLBACK_MS = 2500;

const noSubscription = () => () => {};
// False while rendering on the server and while hydrating its HTML; true for
// every render after that (React re-renders once hydration is done).
function useInBrowser() {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}

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
    onProgress, onSettingsChange, onNearEnd,
  } = props;
  const navigate = useNavigate();
  // Back from a chapter's first page opens the one before at its end.
  const location = useLocation();
  const inBrowser = useInBrowser();
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
  const [overlay, setOverlay] = useState(true);
  const [sheetOpen, setSheetOpen] = useState(false);
  const [firstLoaded, setFirstLoaded] = useState(false);
  // Resuming down the strip: the pages above get their images only once the
  // resumed position holds. The router resets the window to the top for a
  // moment after mounting, and lazy images would load everything up there.
  const [settled, setSettled] = useState(() => !(mode === "vertical" && start.page > 0));
  // The overlay stays while the visitor's pointer or focus is on it.
  const [overlayHeld, setOverlayHeld] = useState(false);
  const imageRefs = useRef([]);
  const stageRef = useRef(null);
  const nearEndSent = useRef(false);
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
  const unitIndex = page >= total ? units.length : unitOfPage(units, page);
  const srcOf = useCallback((item) => (settings.saver ? item.saver_url : item.url), [settings.saver]);
  const rootRef = useRef(null);
  const contentRef = useRef(null);
  const { zoom, zoomer } = useZoom({ mode, rootRef, stageRef, contentRef, page });
  // A zoomed page is the full-size image, never the data saver's, enlarged.
  const shownSrc = useCallback((item) => (zoom > 1 ? item.url : srcOf(item)), [zoom, srcOf]);
  const altOf = useCallback((index) => `${altPrefix} ${index + 1}ページ目`, [altPrefix]);

  // ---- moving around -------------------------------------------------
  // The window scroll that puts `offset` of page `index` on the reading line:
  // whole pixels, the page's top 1px above the line, so the page read back
  // from the scroll position is this one.
  const stripTop = useCallback((index, offset = 0) => {
    const image = imageRefs.current[index];
    if (!image) return null;
    const rect = image.getBoundingClientRect();
    return Math.max(0, Math.round(window.scrollY + rect.top + rect.height * offset) - (STRIP_LINE - 1));
  }, []);
  const scrollStripTo = useCallback(
    (index, offset = 0) => {
      const top = stripTop(index, offset);
      if (top !== null) window.scrollTo({ top, behavior: "instant" });
    },
    [stripTop],
  );

  const makeRoom = useRef(() => {});
  const showPage = useCallback(
    (index) => {
      const target = Math.max(0, Math.min(index, total));
      if (mode === "vertical") {
        if (target >= total) window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" });
        else scrollStripTo(target);
      } else {
        const unit = units[unitOfPage(units, target)];
        if (unit) makeRoom.current(unit.map((shown) => srcOf(pages[shown])));
        setPage(target);
        track(Math.min(target, total - 1), target >= total ? 1 : 0);
      }
    },
    [mode, total, units, pages, srcOf, scrollStripTo, track],
  );

  const act = useCallback(
    (action) => {
      if (action === "menu") {
        setOverlay((shown) => !shown);
        return;
      }
      if (action.startsWith("zoom-")) {
        zoomer.zoomTo(keyZoom(zoomer.current(), action), window.innerWidth / 2, window.innerHeight / 2);
        return;
      }
      setOverlay(false);
      const stage = stageRef.current;
      if (action.startsWith("scroll-") || action.startsWith("line-")) {
        if (!stage) return;
        const step = action.startsWith("line-") ? LINE_STEP_PX : stage.clientHeight * STRIP_STEP;
        stage.scrollBy({ top: action.endsWith("-up") ? -step : step, behavior: "instant" });
        return;
      }
      const backToPrevious = () => prevUrl && navigate(prevUrl, { state: { openAt: "end" } });
      if (mode === "vertical") {
        const step = window.innerHeight * STRIP_STEP;
        if (action === "next") window.scrollBy({ top: step, behavior: "instant" });
        if (action === "prev") {
          if (window.scrollY <= 0) backToPrevious();
          else window.scrollBy({ top: -step, behavior: "instant" });
        }
        if (action === "first") showPage(0);
        if (action === "last") showPage(total);
        return;
      }
      if (action === "next") {
        if (unitIndex >= units.length) {
          if (nextUrl) navigate(nextUrl);
        } else showPage(unitIndex + 1 < units.length ? units[unitIndex + 1][0] : total);
      }
      if (action === "prev") {
        if (unitIndex > 0) showPage(units[unitIndex - 1][0]);
        else backToPrevious();
      }
      if (action === "first") showPage(0);
      if (action === "last") showPage(units[units.length - 1][0]);
    },
    [mode, units, unitIndex, total, nextUrl, prevUrl, navigate, showPage, zoomer],
  );

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

  useEffect(() => {
    // The first report: the server's history learns which position this
    // opening really started from (this browser may know a newer one).
    report(position.current.page, position.current.offset);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const reportedView = useRef(viewId);
  useEffect(() => {
    // Hydrated from the server's render, this opening's own view id arrives
    // with the live state a moment later, and the server drops reports of
    // another opening: tell it again where this opening is.
    if (viewId === reportedView.current) return;
    reportedView.current = viewId;
    sendProgress(position.current.page, Math.round(position.current.offset * 1000) / 1000, Date.now());
  }, [viewId, sendProgress]);

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

  useEffect(() => {
    // The server's HTML may have brought the first page before hydration,
    // and with it its load event.
    const image = rootRef.current && rootRef.current.querySelector(`img[data-page-index="${start.page}"]`);
    if (image && image.complete && image.naturalWidth > 0) setFirstLoaded(true);
    const timer = setTimeout(() => setFirstLoaded(true), PRELOAD_FALLBACK_MS);
    return () => clearTimeout(timer);
  }, [start.page]);

  useEffect(() => {
    // A new quality choice: the server preloads that one from now on.
    rememberFirstPage(storeKey, position.current.page, !!settings.saver);
  }, [storeKey, settings.saver]);

  // In reading order from the page on screen, then the next chapter's first pages.
  const wanted = loadOrder(Math.min(page, total - 1), total, preload).map((index) => srcOf(pages[index]));
  makeRoom.current = useLoadQueue([...wanted, ...nextWarm], firstLoaded, nextWarm);
  // The page after the first is wanted within seconds: the server's HTML
  // names it already (React hoists the link into the head), so a slow link
  // fetches it while the app's scripts arrive, not after them.
  const secondPage = mode === "paged" ? loadOrder(start.page, total, 1).slice(1).map((index) => srcOf(pages[index])) : [];

  useEffect(() => {
    if (nearEndSent.current || !nextUrl || total === 0) return;
    if (page + 1 >= Math.ceil(total * NEAR_END_SHARE)) {
      nearEndSent.current = true;
      if (onNearEnd) onNearEnd();
    }
  }, [page, total, nextUrl, onNearEnd]);

  const endCard = (
    <EndCard heading={heading} nextUrl={nextUrl} nextLabel={nextLabel} seriesUrl={seriesUrl} seriesTitle={seriesTitle} />
  );
  const onPriorityLoad = () => setFirstLoaded(true);

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
      {secondPage.map((url) => (
        <link key={url} rel="preload" as="image" href={url} fetchPriority="low" />
      ))}
      <div className="reader-content" ref={contentRef} onClick={onClick}>
        {mode === "vertical" ? (
          <VerticalStrip
            pages={pages}
            fit={fit}
            srcOf={shownSrc}
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
      <Overlay
        visible={overlay || sheetOpen}
        heading={heading}
        seriesTitle={seriesTitle}
        seriesUrl={seriesUrl}
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
        seriesSlug={seriesSlug}
        saver={!!settings.saver}
      />
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
