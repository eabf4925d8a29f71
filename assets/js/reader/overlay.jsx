// The reading overlay (title, page slider, chapter selector, settings,
// previous/next chapter). It sits at the bottom, within one thumb's reach.
import React from "react";
import { Link, useNavigate } from "react-router";
import { ReaderOfflineSave } from "../offline/save_button.jsx";

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

export function Overlay({
  visible, heading, seriesTitle, seriesUrl, chapterUrl, chapters, prevUrl, prevLabel, nextUrl, nextLabel,
  page, pageLabel, total, sliderRtl, onSlide, onOpenSettings, onReveal, onHold, seriesSlug, saver,
}) {
  const navigate = useNavigate();
  return (
    <div
      className="reader-overlay"
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
      <div className="reader-overlay-head">
        <Link className="reader-overlay-series" to={seriesUrl}>
          {seriesTitle}
        </Link>
        <span className="reader-overlay-chapter">{heading}</span>
      </div>
      <div className="reader-overlay-row">
        <ChapterLink url={prevUrl} label={prevLabel} className="reader-chip">
          ‹ 前の話
        </ChapterLink>
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
        <ChapterLink url={nextUrl} label={nextLabel} className="reader-chip">
          次の話 ›
        </ChapterLink>
      </div>
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
      </div>
      <ReaderOfflineSave chapters={chapters} chapterUrl={chapterUrl} saver={saver} slug={seriesSlug} />
    </div>
  );
}
