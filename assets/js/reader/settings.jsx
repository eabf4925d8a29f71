// The reader settings sheet. Every choice is sent to Python, which stores it
// per visitor (localStorage) and hands the settings back as props. A modal
// dialog: focus stays inside while it is open and goes back to the button
// that opened it when it closes.
import React, { useEffect, useRef } from "react";

const FOCUSABLE = "button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex='-1'])";

function Choice({ legend, value, options, onPick, hint }) {
  return (
    <fieldset className="reader-choice">
      <legend>{legend}</legend>
      <div className="reader-choice-options">
        {options.map(([optionValue, label]) => (
          <button
            key={String(optionValue)}
            type="button"
            aria-pressed={value === optionValue ? "true" : "false"}
            onClick={() => onPick(optionValue)}
          >
            {label}
          </button>
        ))}
      </div>
      {hint ? <p className="reader-choice-hint">{hint}</p> : null}
    </fieldset>
  );
}

// Tab and Shift+Tab cycle through the dialog's own controls.
function trapFocus(event, dialog) {
  if (event.key !== "Tab" || !dialog) return;
  const items = [...dialog.querySelectorAll(FOCUSABLE)];
  if (items.length === 0) return;
  const first = items[0];
  const last = items[items.length - 1];
  const inside = dialog.contains(document.activeElement);
  if (event.shiftKey && (document.activeElement === first || !inside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
    event.preventDefault();
    first.focus();
  }
}

export function SettingsSheet({ settings, mode, directionChoice, onChange, onClose }) {
  const closeRef = useRef(null);
  const dialogRef = useRef(null);
  useEffect(() => {
    const opener = document.activeElement;
    closeRef.current?.focus();
    const onKey = (event) => trapFocus(event, dialogRef.current);
    document.addEventListener("keydown", onKey, true);
    return () => {
      document.removeEventListener("keydown", onKey, true);
      if (opener && opener.isConnected && typeof opener.focus === "function") opener.focus();
    };
  }, []);
  const change = (key) => (value) => onChange({ [key]: value });
  return (
    <div className="reader-sheet-backdrop" onClick={onClose}>
      <div
        ref={dialogRef}
        className="reader-sheet"
        role="dialog"
        aria-modal="true"
        aria-label="表示設定"
        onClick={(event) => event.stopPropagation()}
      >
        <div className="reader-sheet-head">
          <h2>表示設定</h2>
          <button ref={closeRef} type="button" className="reader-chip" onClick={onClose}>
            閉じる
          </button>
        </div>
        <Choice
          legend="読み方"
          value={mode}
          options={[["vertical", "縦スクロール"], ["paged", "ページめくり"]]}
          onPick={change("mode")}
        />
        <Choice
          legend="めくる方向"
          value={directionChoice}
          options={[["auto", "作品の設定"], ["rtl", "右から左（漫画）"], ["ltr", "左から右"]]}
          onPick={change("direction")}
          hint="この作品だけに使われます。"
        />
        <Choice
          legend="見開き"
          value={settings.double}
          options={[[false, "1ページ"], [true, "見開き"]]}
          onPick={change("double")}
          hint="横長のページ（見開き画像）は常に1枚で表示します。"
        />
        <Choice
          legend="見開きのずれ"
          value={typeof settings.offset === "boolean" ? settings.offset : null}
          options={[[null, "自動"], [false, "そのまま"], [true, "1ページずらす"]]}
          onPick={change("offset")}
          hint="自動: 話ごとに見開きページの位置から決めます。"
        />
        <Choice
          legend="画像の大きさ"
          value={settings.fit}
          options={[["auto", "自動"], ["width", "幅に合わせる"], ["height", "高さに合わせる"], ["original", "原寸"]]}
          onPick={change("fit")}
        />
        <Choice
          legend="タップの左右"
          value={settings.tap_swap}
          options={[[false, "そのまま"], [true, "入れ替える"]]}
          onPick={change("tap_swap")}
          hint="片手で持つときに、めくる側を親指の届く側へ。"
        />
        <Choice
          legend="画質"
          value={settings.saver}
          options={[[false, "標準"], [true, "データセーバー"]]}
          onPick={change("saver")}
        />
        <Choice
          legend="先読み"
          value={settings.preload}
          options={[[0, "自動"], [2, "2ページ"], [5, "5ページ"], [10, "10ページ"], [-1, "すべて"]]}
          onPick={change("preload")}
        />
      </div>
    </div>
  );
}
