// The antd root for every page: theme (primary colour, font size, compact
// algorithm), Japanese locale and the notification defaults of the spec.
// The same theme JSON feeds the build-time static CSS extraction, so the
// class hashes computed here match the stylesheet that is already painted.
import React, { useEffect } from "react";
import { App, ConfigProvider, theme as antdTheme } from "antd";
import jaJP from "antd/locale/ja_JP";
import themeConfig from "../antd_theme.json";

export const NOTIFICATION_DURATION_SECONDS = 4.5;

export function buildTheme() {
  const algorithm =
    themeConfig.algorithm === "compact" ? antdTheme.compactAlgorithm : antdTheme.defaultAlgorithm;
  return { token: themeConfig.token, cssVar: themeConfig.cssVar, algorithm };
}

const THEME = buildTheme();

// Exposes antd's notification API to Python event handlers, which call
// window.mangaNotify(kind, message, description) through rx.call_script.
function NotificationBridge() {
  const { notification } = App.useApp();
  useEffect(() => {
    window.mangaNotify = (kind, message, description) => {
      const show = notification[kind] || notification.info;
      show({ message, description });
    };
    return () => {
      delete window.mangaNotify;
    };
  }, [notification]);
  return null;
}

export function AntdProvider({ children, notificationMaxCount = 3 }) {
  return (
    // autoInsertSpace would write "検 索": wrong for Japanese labels.
    <ConfigProvider theme={THEME} locale={jaJP} button={{ autoInsertSpace: false }}>
      <App
        component={false}
        notification={{
          duration: NOTIFICATION_DURATION_SECONDS,
          maxCount: notificationMaxCount,
          placement: "bottom",
        }}
        message={{ maxCount: notificationMaxCount }}
      >
        <NotificationBridge />
        {children}
      </App>
    </ConfigProvider>
  );
}
