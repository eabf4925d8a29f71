// Reports a page view to gtag on every route change, client-side navigations
// included. The server only loads gtag (and so defines window.gtag) on the
// production host; everywhere else this component does nothing.
import { useEffect } from "react";
import { useLocation } from "react-router";

export function PageViewReporter() {
  const location = useLocation();
  useEffect(() => {
    if (typeof window.gtag !== "function") return;
    window.gtag("event", "page_view", {
      page_path: location.pathname + location.search,
      page_location: window.location.href,
    });
  }, [location.pathname, location.search]);
  return null;
}
