// The reading overlay (page slider, previous/next chapter, chapter selector,
// settings, offline save). It sits at the bottom, within one thumb's reach.
import React from "react";
import { Link, useNavigate } from "react-router";
import { ReaderOfflineSave } from "../offline/save_button.jsx";
import { pagesPending } from "./loading.js";

function ChapterLink({ url, label, children, className }) {
  if (!url) {
    return (
      <span className={`${className} is-disabled`} aria-disabled="true">
        {children}
      </span>
    );
  }
  return (
    <Link className={className} to={url} title={label} prefetch="intent">
      {children}
    </Link>
  );
}

// Right to left the slider fills from the right, so the next chapter sits on
// the left, where reading goes (as in ジャンプ+ and ピッコマ); left to right
// and down the strip, on the right.
function ChapterMoves({ rtl, prevUrl, prevLabel, nextUrl, nextLabel, children }) {
  const prev = (
    <ChapterLink url={prevUrl} label={prevLabel} className="reader-chip reader-prev">
      {rtl ? "前の話 ›" : "‹ 前の話"}
    </ChapterLink>
  );
  const next = (
    <ChapterLink url={nextUrl} label={nextLabel} className="reader-chip reader-next">
      {rtl ? "‹ 次の話" : "次の話 ›"}
    </ChapterLink>
  );
  return (
    <div className="reader-overlay-row">
      {rtl ? next : prev}
      {children}
      {rtl ? prev : next}
    </div>
  );
}

// What a reader needs while reading, and nothing more: the page slider, the
// chapters, settings and one save control. The title is in the top bar.
export function Overlay({
  visible, chapterUrl, chapters, prevUrl, prevLabel, nextUrl, nextLabel,
  page, pageLabel, total, sliderRtl, onSlide, onOpenSettings, onReveal, onHold, saver,
}) {
  const navigate = useNavigate();
  return (
    <nav
      className="reader-overlay reader-overlay-foot"
      aria-label="読書メニュー"
      data-visible={visible ? "true" : "false"}
      // A keyboard visitor tabbing into a hidden overlay gets it back.
      onFocus={() => {
        onReveal();
        onHold(true);
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) onHold(false);
      }}
      onPointerEnter={(event) => event.pointerType === "mouse" && onHold(true)}
      onPointerLeave={() => onHold(false)}
    >
      <ChapterMoves rtl={sliderRtl} prevUrl={prevUrl} prevLabel={prevLabel} nextUrl={nextUrl} nextLabel={nextLabel}>
        <input
          className="reader-slider"
          type="range"
          min={1}
          max={Math.max(total, 1)}
          step={1}
          value={Math.min(page + 1, total)}
          dir={sliderRtl ? "rtl" : "ltr"}
          aria-label="ページ"
          aria-valuetext={`${Math.min(page + 1, total)}ページ目（全${total}ページ）`}
          onChange={(event) => onSlide(Number(event.target.value) - 1)}
        />
        <span className="reader-counter" aria-live="polite">
          {pageLabel || Math.min(page + 1, total)} / {total}
        </span>
      </ChapterMoves>
      <div className="reader-overlay-row">
        <select
          className="reader-select"
          aria-label="話を選ぶ"
          value={chapterUrl}
          onChange={(event) => {
            if (event.target.value !== chapterUrl) navigate(event.target.value);
          }}
        >
          {chapters.map((chapter) => (
            <option key={chapter.url} value={chapter.url}>
              {chapter.label}
            </option>
          ))}
        </select>
        <button type="button" className="reader-chip reader-settings-button" onClick={onOpenSettings}>
          ⚙ 設定
        </button>
        <ReaderOfflineSave chapterUrl={chapterUrl} saver={saver} pending={pagesPending} />
      </div>
    </nav>
  );
}
