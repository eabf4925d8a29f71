// The card after the last page: the next chapter as the obvious action
// (a tap, Enter, or one more page turn), いいね with its count, the series'
// follow control (Python's, passed in as `follow`), its chapter list one tap
// away, 完結 or a wait for the next update after the last chapter, and what
// to read next.
import React, { useEffect, useRef } from "react";
import { Link } from "react-router";

// A title cut at the phrases the server found (reader/end_state.py, as
// ui/phrased.py does for pages): a <wbr> between them, and the `phrased`
// class (browse.css) forbids any other break.
function Phrased({ text, phrases }) {
  return (phrases[text] || [text]).map((part, i) => (
    <React.Fragment key={i}>{i ? <wbr /> : null}{part}</React.Fragment>
  ));
}

function NextChapter({ url, label, phrases }) {
  return (
    <Link className="reader-end-next" to={url} prefetch="intent" data-testid="end-next">
      <span className="reader-end-next-label">次の話へ</span>
      <span className="reader-end-next-title phrased"><Phrased text={label} phrases={phrases} /></span>
      <span className="reader-end-next-hint" aria-hidden="true">Enterキーでも進めます</span>
    </Link>
  );
}

function SeriesState({ complete }) {
  return complete ? (
    <p className="reader-end-latest reader-end-finished phrased" data-testid="end-complete">
      <span className="reader-end-complete">完結</span>最終話まで<wbr />読みました。<wbr />この作品は<wbr />完結しています。
    </p>
  ) : (
    <p className="reader-end-latest phrased">最新話まで<wbr />読みました。<wbr />更新を<wbr />お待ちください。</p>
  );
}

function LikeButton({ likes, liked, ready, onLike }) {
  return (
    <button
      type="button"
      className="reader-end-like"
      aria-pressed={liked ? "true" : "false"}
      disabled={!ready}
      onClick={onLike}
      data-testid="end-like"
    >
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" className="reader-end-like-icon">
        <path d="M12 21s-7.5-4.6-9.6-9.3C.9 8.3 3 4.5 6.6 4.5c2.1 0 3.6 1.2 4.4 2.6.8-1.4 2.3-2.6 4.4-2.6 3.6 0 5.7 3.8 4.2 7.2C19.5 16.4 12 21 12 21z" />
      </svg>
      <span className="reader-end-like-label">{liked ? "いいね済み" : "いいね"}</span>
      <span className="reader-end-like-count" data-testid="end-like-count">{ready ? likes : "–"}</span>
    </button>
  );
}

function ChapterList({ chapters, current }) {
  if (chapters.length < 2) return null;
  return (
    <details className="reader-end-chapters">
      <summary>話一覧<span className="reader-end-chapters-count">{chapters.length}</span></summary>
      <ol>
        {chapters.map((chapter) => (
          <li key={chapter.url}>
            <Link to={chapter.url} aria-current={chapter.number === current ? "page" : undefined}>{chapter.label}</Link>
          </li>
        ))}
      </ol>
    </details>
  );
}

function Picks({ picks, alsoRead, phrases }) {
  if (!picks.length) return null;
  const title = alsoRead ? "この作品を読んだ人はこんな作品も読んでいます" : "次に読むなら";
  return (
    <nav className="reader-end-picks" aria-label={title}>
      <h2 className="reader-end-picks-title phrased">{alsoRead ? <>この作品を<wbr />読んだ人は<wbr />こんな作品も<wbr />読んでいます</> : title}</h2>
      <ul>
        {picks.map((pick) => (
          <li key={pick.url}>
            <Link className="reader-end-pick" to={pick.url}>
              {pick.cover ? (
                // The cover's AVIF where the browser shows it (reader_pages.css: no box of its own).
                <picture className="reader-picture">
                  {pick.cover_avif ? <source type="image/avif" srcSet={pick.cover_avif} /> : null}
                  <img src={pick.cover} alt="" width={80} height={114} loading="lazy" />
                </picture>
              ) : null}
              <span className="reader-end-pick-title phrased"><Phrased text={pick.title} phrases={phrases} /></span>
              <span className="reader-end-pick-why">{pick.why}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

// Tells the app once that the card came into view (the reader is known by
// then: the like shown is theirs).
function useSeen(ref, onSeen) {
  const told = useRef(false);
  const latest = useRef(onSeen);
  latest.current = onSeen;
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === "undefined") return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (told.current || !entries.some((entry) => entry.isIntersecting)) return;
      told.current = true;
      if (latest.current) latest.current();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
}

export function EndCard({
  heading, nextUrl, nextLabel, seriesUrl, seriesTitle, seriesSlug = "", chapterNumber = "", chapters = [],
  complete = false, picks = [], picksAlsoRead = false, phrases = {},
  likes = "0", liked = false, likeKey = "", onLike, onSeen, follow = null,
}) {
  const ref = useRef(null);
  const key = `${seriesSlug}/${chapterNumber}`;
  useSeen(ref, () => onSeen && onSeen(seriesSlug, chapterNumber));
  return (
    <section className="reader-end" aria-label="この話のおわり" ref={ref} data-testid="end-card">
      <p className="reader-end-kicker phrased">{heading} おわり</p>
      {nextUrl ? <NextChapter url={nextUrl} label={nextLabel} phrases={phrases} /> : <SeriesState complete={complete} />}
      <div className="reader-end-actions">
        <LikeButton likes={likes} liked={liked && likeKey === key} ready={likeKey === key} onLike={() => onLike && onLike(seriesSlug, chapterNumber, !(liked && likeKey === key))} />
        {/* The series' follow control; a reading-status picker takes this place. */}
        <div className="reader-end-follow">{follow}</div>
      </div>
      <ChapterList chapters={chapters} current={chapterNumber} />
      <Picks picks={picks} alsoRead={picksAlsoRead} phrases={phrases} />
      <Link className="reader-end-title phrased" to={seriesUrl}>
        <Phrased text={seriesTitle} phrases={phrases} /> の<wbr />作品ページへ<wbr />戻る
      </Link>
    </section>
  );
}
