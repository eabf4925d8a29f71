// The antd root for every page: theme (primary colour, font size, compact
// algorithm), Japanese locale and the notification defaults of the spec.
// The same theme JSON feeds the build-time static CSS extraction, so the
// class hashes computed here match the stylesheet that is already painted.
//
// zeroRuntime: the page's antd components (buttons, search boxes, results)
// are all styled by that stylesheet (tools/extract_antd_css.cjs), so antd
// generates none of their styles in the browser. It used to build each
// component's style objects and serialise and hash them while the page
// hydrated, only to find the stylesheet already had them: about half of
// antd's style work on the main thread during load. (The theme's CSS
// variables are still written at runtime: antd has no switch for them.)
// Notifications are the exception: they never show at first paint and are
// left out of the stylesheet, so their holder keeps antd's runtime styles,
// generated when the first one shows.
import React, { useEffect, useRef, useState } from "react";
import { ConfigProvider, notification as antdNotification } from "antd";
import jaJP from "antd/locale/ja_JP";
import themeConfig from "../antd_theme.json";
// The theme's algorithm ("compact" over antd's default seed and our tokens),
// already run at build time by tools/extract_antd_css.cjs: deriving its
// palettes and sizes took a third of antd's token work on every page load.
import mapToken from "../antd_map_token.json";

export const NOTIFICATION_DURATION_SECONDS = 4.5;

const derivedAtBuild = () => ({ ...mapToken });

export function buildTheme() {
  return { token: themeConfig.token, cssVar: themeConfig.cssVar, algorithm: derivedAtBuild };
}

const THEME = { ...buildTheme(), zeroRuntime: true };
// Same token and CSS variable scope (a nested theme without the key would get
// a new one); only the runtime styles differ.
const NOTIFICATION_THEME = { cssVar: themeConfig.cssVar, zeroRuntime: false };

// Exposes antd's notification API to Python event handlers, which call
// window.mangaNotify(kind, message, description) through rx.call_script.
// The holder, with its own theme (a second token computation and runtime
// styles), mounts with the first notice: most page loads show none, and it
// was a third of antd's main-thread work while a page hydrated.
function NotificationBridge({ maxCount }) {
  const [notices, setNotices] = useState([]);
  useEffect(() => {
    window.mangaNotify = (kind, message, description) => {
      setNotices((shown) => [...shown, { kind, message, description }]);
    };
    return () => {
      delete window.mangaNotify;
    };
  }, []);
  return notices.length ? <Notifications maxCount={maxCount} notices={notices} /> : null;
}

// Shows each notice once, in order, as it is added to `notices`.
function Notifications({ maxCount, notices }) {
  const [notification, holder] = antdNotification.useNotification({
    duration: NOTIFICATION_DURATION_SECONDS,
    maxCount,
    placement: "bottom",
  });
  const shown = useRef(0);
  useEffect(() => {
    for (const { kind, message, description } of notices.slice(shown.current)) {
      (notification[kind] || notification.info)({ message, description });
    }
    shown.current = notices.length;
  }, [notices, notification]);
  return <ConfigProvider theme={NOTIFICATION_THEME}>{holder}</ConfigProvider>;
}

export function AntdProvider({ children, notificationMaxCount = 3 }) {
  return (
    // autoInsertSpace would write "検 索": wrong for Japanese labels.
    <ConfigProvider theme={THEME} locale={jaJP} button={{ autoInsertSpace: false }}>
      <NotificationBridge maxCount={notificationMaxCount} />
      {children}
    </ConfigProvider>
  );
}
