// The card after the last page: on to the next chapter; after the series'
// last chapter, 完結 with what to read next, or a wait for the next update.
// Each part is its own piece, so the card can grow (いいね, readers also read).
import React from "react";
import { Link } from "react-router";

function NextChapter({ url, label }) {
  return (
    <Link className="reader-end-next" to={url} prefetch="intent">
      <span className="reader-end-next-label">次の話へ</span>
      <span className="reader-end-next-title">{label}</span>
    </Link>
  );
}

function SeriesState({ complete }) {
  return complete ? (
    <p className="reader-end-latest">
      <span className="reader-end-complete">完結</span>最終話まで読みました。
    </p>
  ) : (
    <p className="reader-end-latest">最新話まで読みました。更新をお待ちください。</p>
  );
}

function Picks({ picks }) {
  if (!picks.length) return null;
  return (
    <nav className="reader-end-picks" aria-label="次に読む作品">
      <h2 className="reader-end-picks-title">次に読むなら</h2>
      <ul>
        {picks.map((pick) => (
          <li key={pick.url}>
            <Link className="reader-end-pick" to={pick.url}>
              {pick.cover ? <img src={pick.cover} alt="" width={80} height={114} loading="lazy" /> : null}
              <span className="reader-end-pick-title">{pick.title}</span>
              <span className="reader-end-pick-why">{pick.why}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function EndCard({ heading, nextUrl, nextLabel, seriesUrl, seriesTitle, complete = false, picks = [] }) {
  return (
    <section className="reader-end" aria-label="この話のおわり">
      <p className="reader-end-kicker">{heading} おわり</p>
      {nextUrl ? <NextChapter url={nextUrl} label={nextLabel} /> : <SeriesState complete={complete} />}
      {nextUrl ? null : <Picks picks={picks} />}
      <Link className="reader-end-title" to={seriesUrl}>
        {seriesTitle} の作品ページへ戻る
      </Link>
    </section>
  );
}
