// Whether the page shown is a reader page, by the server's own path rule
// (manga_app/core/routes.py, reader_path_pattern, handed down as the
// `readerPath` prop: a RegExp source). The reader's route is also the
// catch-all (Reflex cannot express the reader's path), so the matched route
// alone does not say: /abc-ch-12/x is the 404 page.
import { useMemo } from "react";
import { useLocation } from "react-router";

export function useReaderPage(readerPath) {
  const rule = useMemo(() => new RegExp(readerPath), [readerPath]);
  return rule.test(useLocation().pathname);
}
