// How the reader moves: to a page (paged) or a place in the strip
// (vertical), and what each action of keys, taps, swipes and the overlay
// does, up to leaving for the neighbour chapters.
import { useCallback, useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import { unitOfPage } from "./layout.js";
import { STRIP_LINE } from "./strip.js";
import { keyZoom } from "./zoom.js";

// Tap to scroll in the vertical strip: most of a screen, keeping some context.
const STRIP_STEP = 0.85;
// Arrow keys inside a tall page of the paged reader.
const LINE_STEP_PX = 60;

// Whether the end card is on screen: the paged reader's last screen, or the
// strip scrolled down to it.
function endCardShown(mode, unitIndex, units) {
  if (mode !== "vertical") return unitIndex >= units.length;
  const card = document.querySelector(".reader-root .reader-end");
  if (!card) return false;
  const box = card.getBoundingClientRect();
  return box.top < window.innerHeight && box.bottom > 0;
}

// `makeRoom` is the load queue's (set by the reader each render): a page
// turned to is loaded before the pages queued for later. It draws the page
// through its callback: at once, or a moment later when requests had to be
// cancelled for it (so its own request never makes a fourth).
export function useMoves({ mode, total, units, unitIndex, pages, srcOf, track, setPage, setOverlay, zoomer, imageRefs, stageRef, prevUrl, nextUrl }) {
  const navigate = useNavigate();
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

  const makeRoom = useRef((wantedNow, show) => show());
  // A move drawn a task later (makeRoom had to cancel requests) must neither
  // leave the next key computing from the page still on screen (End, then →,
  // went to page 2) nor land after a later move: `asked` is the page the
  // last move asked for until the screen shows it, and only the last move
  // asked for is drawn.
  const asked = useRef(null);
  const moves = useRef(0);
  const showPage = useCallback(
    (index) => {
      const target = Math.max(0, Math.min(index, total));
      if (mode === "vertical") {
        if (target >= total) window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" });
        else scrollStripTo(target);
      } else {
        const unit = units[unitOfPage(units, target)];
        const move = ++moves.current;
        asked.current = target;
        const show = () => {
          if (move !== moves.current) return;
          setPage(target);
          track(Math.min(target, total - 1), target >= total ? 1 : 0);
        };
        if (unit) makeRoom.current(unit.map((shown) => srcOf(pages[shown])), show);
        else show();
      }
    },
    [mode, total, units, pages, srcOf, scrollStripTo, track],
  );

  useEffect(() => {
    if (asked.current !== null && unitOfPage(units, asked.current) === unitIndex) {
      asked.current = null;
    }
  }, [unitIndex, units]);
  useEffect(() => {
    asked.current = null; // a mode switch starts from the page on screen
  }, [mode]);

  const act = useCallback(
    (action) => {
      // The screen the last move asked for, drawn or about to be.
      const at = asked.current === null ? unitIndex : unitOfPage(units, asked.current);
      if (action === "menu") {
        setOverlay((shown) => !shown);
        return;
      }
      if (action.startsWith("zoom-")) {
        zoomer.zoomTo(keyZoom(zoomer.current(), action), window.innerWidth / 2, window.innerHeight / 2);
        return;
      }
      setOverlay(false);
      if (action === "continue") {
        // Only from the end card: Enter mid-chapter turns no page.
        if (nextUrl && endCardShown(mode, at, units)) navigate(nextUrl);
        return;
      }
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
        if (at >= units.length) {
          if (nextUrl) navigate(nextUrl);
        } else showPage(at + 1 < units.length ? units[at + 1][0] : total);
      }
      if (action === "prev") {
        if (at > 0) showPage(units[at - 1][0]);
        else backToPrevious();
      }
      if (action === "first") showPage(0);
      if (action === "last") showPage(units[units.length - 1][0]);
    },
    [mode, units, unitIndex, total, nextUrl, prevUrl, navigate, showPage, zoomer],
  );

  return { stripTop, scrollStripTo, makeRoom, showPage, act };
}
