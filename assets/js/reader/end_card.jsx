// The card after the last page: on to the next chapter, or back to the title.
import React from "react";
import { Link } from "react-router";

export function EndCard({ heading, nextUrl, nextLabel, seriesUrl, seriesTitle }) {
  return (
    <section className="reader-end" aria-label="この話のおわり">
      <p className="reader-end-kicker">{heading} おわり</p>
      {nextUrl ? (
        <Link className="reader-end-next" to={nextUrl} prefetch="intent">
          <span className="reader-end-next-label">次の話へ</span>
          <span className="reader-end-next-title">{nextLabel}</span>
        </Link>
      ) : (
        <p className="reader-end-latest">最新話まで読みました。更新をお待ちください。</p>
      )}
      <Link className="reader-end-title" to={seriesUrl}>
        {seriesTitle} の作品ページへ戻る
      </Link>
    </section>
  );
}
