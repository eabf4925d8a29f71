// The notifications of every page (an app wrap: manga_app/ui/antd/provider.py).
// antd draws them, in the site's theme (antd_provider.jsx), but most page
// loads show none: antd (160 KB of script) is imported with the first
// notice, not evaluated before every page's first frame. The service worker
// keeps every built script, so a notice shown offline finds it too.
import React, { Suspense, lazy, useEffect, useState } from "react";
import { showNoticesWith } from "./notify.js";
// Python's notices (rx.call_script strings) reach notify.js through this module.
import "./actions.js";

const Notifications = lazy(() => import("./antd_provider.jsx").then((module) => ({ default: module.Notifications })));

// Collects what notify.js is given (the site's scripts, buttons and Python
// event handlers through client_commands.js) from the start, so a notice
// given while antd loads is shown once it has.
function NotificationBridge({ maxCount }) {
  const [notices, setNotices] = useState([]);
  useEffect(() => {
    return showNoticesWith((kind, message, description) => {
      setNotices((shown) => [...shown, { kind, message, description }]);
    });
  }, []);
  return notices.length ? (
    <Suspense fallback={null}>
      <Notifications maxCount={maxCount} notices={notices} />
    </Suspense>
  ) : null;
}

export function AntdProvider({ children, notificationMaxCount = 3 }) {
  return (
    <>
      <NotificationBridge maxCount={notificationMaxCount} />
      {children}
    </>
  );
}
