// The interactive reader. Python gives it the chapter's pages, the visitor's
// settings and where to resume; it reports the position back (onProgress),
// setting changes (onSettingsChange) and the approaching end (onNearEnd).
import React, { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { buildUnits, positionInStrip, unitOfPage } from "./layout.js";
import { isFormTarget, keyAction, swipeAction, tapAction } from "./input.js";
import { usePreload, useProgressReporter, useViewport } from "./hooks.js";
import { PagedStage, VerticalStrip } from "./pages.jsx";
import { EndCard } from "./end_card.jsx";
import { Overlay } from "./overlay.jsx";
import { SettingsSheet } from "./settings.jsx";

const OVERLAY_AUTO_HIDE_MS = 3000;
const NEAR_END_PAGES = 3;
// Tap to scroll in the vertical strip: most of a screen, keeping some context.
const STRIP_STEP = 0.85;
// The reading line of the strip, just below the top edge, so a page whose
// top sits exactly at the edge counts as the current one.
const STRIP_LINE = 2;
// How long the resumed scroll position is defended against the router.
const RESUME_HOLD_MS = 1500;
// A preload fallback in case the first page's load event never comes.
const PRELOAD_FALLBACK_MS = 2500;

export function MangaReader(props) {
  const {
    pages = [], altPrefix = "", heading = "", seriesTitle = "", seriesUrl = "/", chapterUrl = "",
    prevUrl = "", prevLabel = "", nextUrl = "", nextLabel = "", chapters = [],
    mode = "paged", direction = "rtl", settings = {}, preload = 0,
    initialPage = 0, initialOffset = 0, nextWarm = [], viewId = 0,
    onProgress, onSettingsChange, onNearEnd,
  } = props;
  const navigate = useNavigate();
  const viewport = useViewport();
  const total = pages.length;
  const [page, setPage] = useState(() => Math.min(initialPage, Math.max(total - 1, 0)));
  const [overlay, setOverlay] = useState(true);
  const [sheetOpen, setSheetOpen] = useState(false);
  const [firstLoaded, setFirstLoaded] = useState(false);
  // The overlay stays while the visitor's pointer or focus is on it.
  const [overlayHeld, setOverlayHeld] = useState(false);
  const imageRefs = useRef([]);
  const stageRef = useRef(null);
  const touch = useRef(null);
  const nearEndSent = useRef(false);
  const sendProgress = useCallback((index, offset) => onProgress && onProgress(viewId, index, offset), [onProgress, viewId]);
  const report = useProgressReporter(sendProgress);
  const fit = settings.fit || "auto";
  const units = useMemo(() => buildUnits(pages, !!settings.double, !!settings.offset), [pages, settings.double, settings.offset]);
  const unitIndex = page >= total ? units.length : unitOfPage(units, page);
  const srcOf = useCallback((item) => (settings.saver ? item.saver_url : item.url), [settings.saver]);
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

  const showPage = useCallback(
    (index) => {
      const target = Math.max(0, Math.min(index, total));
      if (mode === "vertical") {
        if (target >= total) window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" });
        else scrollStripTo(target);
      } else {
        setPage(target);
        report(Math.min(target, total - 1), 0);
      }
    },
    [mode, total, scrollStripTo, report],
  );

  const act = useCallback(
    (action) => {
      if (action === "menu") {
        setOverlay((shown) => !shown);
        return;
      }
      setOverlay(false);
      if (mode === "vertical") {
        const step = window.innerHeight * STRIP_STEP;
        if (action === "next") window.scrollBy({ top: step, behavior: "instant" });
        if (action === "prev") window.scrollBy({ top: -step, behavior: "instant" });
        if (action === "first") showPage(0);
        if (action === "last") showPage(total);
        return;
      }
      if (action === "next") {
        if (unitIndex >= units.length) {
          if (nextUrl) navigate(nextUrl);
        } else showPage(unitIndex + 1 < units.length ? units[unitIndex + 1][0] : total);
      }
      if (action === "prev" && unitIndex > 0) showPage(units[unitIndex - 1][0]);
      if (action === "first") showPage(0);
      if (action === "last") showPage(units[units.length - 1][0]);
    },
    [mode, units, unitIndex, total, nextUrl, navigate, showPage],
  );

  // ---- keyboard, taps and swipes ------------------------------------
  useEffect(() => {
    const onKey = (event) => {
      if (isFormTarget(event.target)) return;
      if (sheetOpen) {
        if (event.key === "Escape") setSheetOpen(false);
        return;
      }
      const stage = stageRef.current;
      const action = keyAction(event, {
        direction,
        mode,
        canScrollDown: !!stage && stage.scrollTop + stage.clientHeight < stage.scrollHeight - 2,
        canScrollUp: !!stage && stage.scrollTop > 2,
      });
      if (!action) return;
      // Keys on a focused link or button keep their own meaning.
      if (action !== "menu" && event.key === " " && event.target.closest?.("a,button")) return;
      event.preventDefault();
      act(action);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [act, direction, mode, sheetOpen]);

  const onClick = (event) => {
    if (event.target.closest("a,button,select,input,.reader-end")) return;
    if (touch.current?.swiped) {
      touch.current = null;
      return;
    }
    act(tapAction(event.clientX, window.innerWidth, direction));
  };
  const onTouchStart = (event) => {
    const point = event.touches[0];
    touch.current = { x: point.clientX, y: point.clientY, swiped: false };
  };
  const onTouchEnd = (event) => {
    const start = touch.current;
    const point = event.changedTouches[0];
    if (!start || !point || mode === "vertical") return;
    const action = swipeAction(point.clientX - start.x, point.clientY - start.y, direction);
    if (action) {
      start.swiped = true;
      act(action);
    }
  };

  // ---- position tracking and resume ----------------------------------
  useLayoutEffect(() => {
    // Resume (and every mode switch) starts at the current page.
    if (mode === "vertical") {
      if (page > 0 || initialOffset > 0) scrollStripTo(Math.min(page, total - 1), page === initialPage ? initialOffset : 0);
    } else if (stageRef.current && page === initialPage && initialOffset > 0) {
      const stage = stageRef.current;
      stage.scrollTop = initialOffset * (stage.scrollHeight - stage.clientHeight);
    }
    // Only on mount and mode switches: later moves come from the visitor.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mode]);

  useEffect(() => {
    // The router restores or resets the window's scroll around hydration,
    // which can land after the resume above: hold the resumed position until
    // the visitor moves (or a moment has passed).
    if (mode !== "vertical" || !(initialPage > 0 || initialOffset > 0)) return undefined;
    const wanted = stripTop(initialPage, initialOffset);
    if (wanted === null) return undefined;
    if (Math.abs(window.scrollY - wanted) > 4) window.scrollTo({ top: wanted, behavior: "instant" });
    let holding = true;
    const release = () => {
      holding = false;
    };
    const hold = () => {
      if (holding && Math.abs(window.scrollY - wanted) > 4) window.scrollTo({ top: wanted, behavior: "instant" });
    };
    const inputs = ["wheel", "touchstart", "keydown", "pointerdown"];
    inputs.forEach((name) => window.addEventListener(name, release, { passive: true, capture: true }));
    window.addEventListener("scroll", hold, { passive: true });
    const timer = setTimeout(release, RESUME_HOLD_MS);
    return () => {
      clearTimeout(timer);
      inputs.forEach((name) => window.removeEventListener(name, release, { capture: true }));
      window.removeEventListener("scroll", hold);
    };
    // Once, right after the resume on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (mode !== "vertical") return undefined;
    let frame = 0;
    let shownAt = window.scrollY;
    const update = () => {
      frame = 0;
      const rects = imageRefs.current.slice(0, total).map((image) => image.getBoundingClientRect());
      const position = positionInStrip(rects, STRIP_LINE);
      setPage(position.page);
      report(position.page, position.offset);
      if (Math.abs(window.scrollY - shownAt) > 80) {
        setOverlay(false);
        shownAt = window.scrollY;
      }
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      window.removeEventListener("scroll", onScroll);
      cancelAnimationFrame(frame);
    };
  }, [mode, total, report]);

  const onStageScroll = () => {
    const stage = stageRef.current;
    if (!stage || page >= total) return;
    const room = stage.scrollHeight - stage.clientHeight;
    report(page, room > 0 ? stage.scrollTop / room : 0);
  };

  useLayoutEffect(() => {
    // A new screen in the paged reader starts at its top.
    if (mode === "paged" && stageRef.current && !(page === initialPage && initialOffset > 0)) stageRef.current.scrollTop = 0;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [page]);

  // ---- overlay, preloading, the next chapter ---------------------------
  useEffect(() => {
    if (!overlay || sheetOpen || overlayHeld) return undefined;
    const timer = setTimeout(() => setOverlay(false), OVERLAY_AUTO_HIDE_MS);
    return () => clearTimeout(timer);
  }, [overlay, sheetOpen, overlayHeld, page]);

  useEffect(() => {
    const timer = setTimeout(() => setFirstLoaded(true), PRELOAD_FALLBACK_MS);
    return () => clearTimeout(timer);
  }, []);

  const ahead = pages.slice(Math.min(page, total) + 1, Math.min(page, total) + 1 + preload).map(srcOf);
  usePreload([...ahead, ...nextWarm], firstLoaded);

  useEffect(() => {
    if (nearEndSent.current || !nextUrl || total === 0) return;
    if (page >= total - NEAR_END_PAGES) {
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
      className="reader-root"
      data-mode={mode}
      data-direction={direction}
      data-overlay={overlay || sheetOpen ? "shown" : "hidden"}
      data-page={Math.min(page, total - 1)}
      data-at-end={page >= total || (mode === "paged" && unitIndex >= units.length) ? "true" : "false"}
    >
      <div className="reader-content" onClick={onClick} onTouchStart={onTouchStart} onTouchEnd={onTouchEnd}>
        {mode === "vertical" ? (
          <VerticalStrip
            pages={pages}
            fit={fit}
            srcOf={srcOf}
            altOf={altOf}
            priorityPage={initialPage}
            imageRefs={imageRefs}
            onPriorityLoad={onPriorityLoad}
            endCard={endCard}
          />
        ) : (
          <PagedStage
            pages={pages}
            unit={unitIndex < units.length ? units[unitIndex] : null}
            fit={fit}
            viewport={viewport}
            direction={direction}
            srcOf={srcOf}
            altOf={altOf}
            priorityPage={initialPage}
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
        total={total}
        sliderRtl={mode === "paged" && direction === "rtl"}
        onSlide={(index) => showPage(index)}
        onOpenSettings={() => setSheetOpen(true)}
        onReveal={() => setOverlay(true)}
        onHold={setOverlayHeld}
      />
      {sheetOpen ? (
        <SettingsSheet
          settings={settings}
          mode={mode}
          direction={direction}
          onChange={(change) => onSettingsChange && onSettingsChange(change)}
          onClose={() => setSheetOpen(false)}
        />
      ) : null}
    </div>
  );
}
