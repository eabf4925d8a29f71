// antd on the site: its theme (primary colour, font size, compact
// algorithm) and Japanese locale around each antd component, and the
// notifications of the spec. The same theme JSON feeds the build-time static
// CSS extraction, so the class hashes computed here match the stylesheet
// that is already painted.
//
// The theme is not a root around the whole app: a ConfigProvider computes
// its token (flattening and hashing every value) and writes its CSS
// variables when it mounts, which cost every page load a long task while
// it hydrated. Content pages draw no antd component (the header's search
// box is plain elements), so only the pages that do (the 404 result, the
// reader's error panel) and the first notice pay for it: the notices' app
// wrap (notices.jsx) imports this module, and antd with it, only then.
//
// zeroRuntime: the antd components the pages draw are styled by that
// stylesheet (tools/extract_antd_css.cjs), so antd generates none of their
// styles in the browser. Notifications are the exception: they never show
// at first paint and are left out of the stylesheet, so their holder keeps
// antd's runtime styles, generated when the first one shows.
import React, { useEffect, useRef } from "react";
import { ConfigProvider, notification as antdNotification } from "antd";
import jaJP from "antd/locale/ja_JP";
import themeConfig from "../antd_theme.json";
// The theme's algorithm ("compact" over antd's default seed and our tokens),
// already run at build time by tools/extract_antd_css.cjs: deriving its
// palettes and sizes took a third of antd's token work on every page load.
import mapToken from "../antd_map_token.json";

export const NOTIFICATION_DURATION_SECONDS = 4.5;

const derivedAtBuild = () => ({ ...mapToken });

const BASE_THEME = {
  token: themeConfig.token,
  components: themeConfig.components,
  cssVar: themeConfig.cssVar,
  algorithm: derivedAtBuild,
};
const THEME = { ...BASE_THEME, zeroRuntime: true };
const NOTIFICATION_THEME = { ...BASE_THEME, zeroRuntime: false };

// Around each antd component the pages draw (manga_app/ui/antd/theme.py).
export function AntdTheme({ children }) {
  return (
    // autoInsertSpace would write "検 索": wrong for Japanese labels.
    <ConfigProvider theme={THEME} locale={jaJP} button={{ autoInsertSpace: false }}>
      {children}
    </ConfigProvider>
  );
}

// Shows each notice once, in order, as it is added to `notices` (notices.jsx
// loads this module with the first one).
export function Notifications({ maxCount, notices }) {
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
  return (
    <ConfigProvider theme={NOTIFICATION_THEME} locale={jaJP}>
      {holder}
    </ConfigProvider>
  );
}
