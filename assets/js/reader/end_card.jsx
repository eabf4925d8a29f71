// The card after the last page: on to the next chapter; after the series'
// last chapter, 完結 with what to read next, or a wait for the next update.
// Each part is its own piece, so the card can grow (いいね, readers also read).
import React from "react";
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
    <Link className="reader-end-next" to={url} prefetch="intent">
      <span className="reader-end-next-label">次の話へ</span>
      <span className="reader-end-next-title phrased"><Phrased text={label} phrases={phrases} /></span>
    </Link>
  );
}

function SeriesState({ complete }) {
  return complete ? (
    <p className="reader-end-latest phrased">
      <span className="reader-end-complete">完結</span>最終話まで<wbr />読みました。
    </p>
  ) : (
    <p className="reader-end-latest phrased">最新話まで<wbr />読みました。<wbr />更新を<wbr />お待ちください。</p>
  );
}

function Picks({ picks, phrases }) {
  if (!picks.length) return null;
  return (
    <nav className="reader-end-picks" aria-label="次に読む作品">
      <h2 className="reader-end-picks-title">次に読むなら</h2>
      <ul>
        {picks.map((pick) => (
          <li key={pick.url}>
            <Link className="reader-end-pick" to={pick.url}>
              {pick.cover ? <img src={pick.cover} alt="" width={80} height={114} loading="lazy" /> : null}
              <span className="reader-end-pick-title phrased"><Phrased text={pick.title} phrases={phrases} /></span>
              <span className="reader-end-pick-why">{pick.why}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function EndCard({ heading, nextUrl, nextLabel, seriesUrl, seriesTitle, complete = false, picks = [], phrases = {} }) {
  return (
    <section className="reader-end" aria-label="この話のおわり">
      <p className="reader-end-kicker">{heading} おわり</p>
      {nextUrl ? <NextChapter url={nextUrl} label={nextLabel} phrases={phrases} /> : <SeriesState complete={complete} />}
      {nextUrl ? null : <Picks picks={picks} phrases={phrases} />}
      <Link className="reader-end-title phrased" to={seriesUrl}>
        <Phrased text={seriesTitle} phrases={phrases} /> の<wbr />作品ページへ<wbr />戻る
      </Link>
    </section>
  );
}
