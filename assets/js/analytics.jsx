// Google Analytics on the production host only. PageViewReporter renders the
// gtag loader (an async script tagged data-gtag-id, which React puts in the
// head, on the server too) on that host alone; everywhere else there is no
// such tag and this module does nothing.
// The gtag bootstrap lives here rather than in an inline script of the
// server's, because React would meet that script while hydrating the head.
import React, { useEffect } from "react";

const GTAG_URL = "https://www.googletagmanager.com/gtag/js";
import { useLocation } from "react-router";

function setUpGtag() {
  if (typeof document === "undefined") return;
  const loader = document.querySelector("script[data-gtag-id]");
  if (!loader || typeof window.gtag === "function") return;
  window.dataLayer = window.dataLayer || [];
  window.gtag = function gtag() {
    window.dataLayer.push(arguments);
  };
  window.gtag("js", new Date());
  // Page views are sent below on every route change, the first one included.
  window.gtag("config", loader.dataset.gtagId, { send_page_view: false });
}

setUpGtag();

// Reports a page view on every route change, client-side navigations included.
export function PageViewReporter({ measurementId = "" }) {
  const location = useLocation();
  useEffect(() => {
    if (typeof window.gtag !== "function") return;
    window.gtag("event", "page_view", {
      page_path: location.pathname + location.search,
      page_location: window.location.href,
    });
  }, [location.pathname, location.search]);
  if (!measurementId) return null;
  return <script async src={`${GTAG_URL}?id=${encodeURIComponent(measurementId)}`} data-gtag-id={measurementId} />;
}
