// The site's stylesheet in the document head (in place of Reflex's link:
// manga_app/reflex_patches.py). Every page waits for it before its first
// frame, except pages of a route that draws itself with a small stylesheet
// of its own (the reader, assets/css/reader_first_paint.css): there the
// site's is fetched without holding the first frame (a media that does not
// match) and applies once the app has started, long after that frame. It
// adds nothing the reader's page shows, so nothing moves when it applies.
import React, { useSyncExternalStore } from "react";
import { useMatches } from "react-router";
import ownStyles from "../css/reader_first_paint.css?url";

const noSubscription = () => () => {};

// `href`: the site's stylesheet. `ownParam`: the route parameter of the
// route with a stylesheet of its own.
export function SiteStylesheet({ href, ownParam }) {
  const own = useMatches().some((match) => match.params && ownParam in match.params);
  // False on the server and while hydrating its HTML, true from then on.
  const started = useSyncExternalStore(noSubscription, () => true, () => false);
  return (
    <>
      {own ? <link key="own" rel="stylesheet" href={ownStyles} /> : null}
      <link key="site" rel="stylesheet" type="text/css" href={href} media={own && !started ? "print" : undefined} />
    </>
  );
}
