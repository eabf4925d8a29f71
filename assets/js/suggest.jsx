// Suggestions under a search box as the visitor types (manga_app/ui/search_suggest.py).
//
// The box itself stays the plain, uncontrolled <input> of the server's HTML:
// this component renders only the list, and listens to the box by its id.
// What the visitor types before the app starts stays in the box, and is
// asked about as soon as the app starts if the box still has the focus.
// The list follows the ARIA combobox pattern: the box is role=combobox
// (aria-expanded, aria-controls, aria-activedescendant), the list a listbox;
// ↑ ↓ move through it, Enter opens the chosen one, Esc closes it; a tap or
// click opens one. Moving through the list never changes what was typed.
import React, { useEffect, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router";

// Keystrokes closer together than this ask once.
const DEBOUNCE_MS = 120;

function closedState() {
  return { items: [], open: false, active: -1 };
}

export function SearchSuggest({ inputId, listId, endpoint = "/suggest.json", label = "検索候補" }) {
  const [view, setView] = useState(closedState);
  const current = useRef(view);
  current.current = view;
  const navigate = useNavigate();
  const location = useLocation();

  useEffect(() => {
    // Listened to on the document, not the box: a page may put a new box in
    // its place (the search page does when the URL's words change).
    const box = () => document.getElementById(inputId);
    const ours = (event) => event.target instanceof HTMLInputElement && event.target.id === inputId;
    let timer = 0;
    let asked = 0; // the number of the newest question: older answers are dropped
    let controller = null;
    const close = () => setView((was) => (was.open || was.active >= 0 ? { ...was, open: false, active: -1 } : was));
    const ask = async (text) => {
      const number = ++asked;
      controller?.abort();
      controller = new AbortController();
      try {
        const response = await fetch(`${endpoint}?q=${encodeURIComponent(text)}`, { signal: controller.signal });
        const body = response.ok ? await response.json() : { items: [] };
        const input = box();
        if (number !== asked || !input || input.value !== text) return;
        const items = Array.isArray(body.items) ? body.items : [];
        setView({ items, open: items.length > 0 && document.activeElement === input, active: -1 });
      } catch (error) {
        if (error?.name !== "AbortError") close();
      }
    };
    const onInput = (event) => {
      if (!ours(event)) return;
      window.clearTimeout(timer);
      const text = event.target.value;
      if (!text.trim()) {
        asked += 1;
        controller?.abort();
        setView(closedState());
        return;
      }
      timer = window.setTimeout(() => ask(text), DEBOUNCE_MS);
    };
    const onKeyDown = (event) => {
      if (!ours(event) || event.isComposing) return; // the IME's own keys (変換 candidates)
      const { items, open, active } = current.current;
      const count = items.length;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        if (!count) return;
        event.preventDefault();
        const down = event.key === "ArrowDown";
        const next = !open ? (down ? 0 : count - 1) : down ? (active + 1) % count : active <= 0 ? count - 1 : active - 1;
        setView({ items, open: true, active: next });
      } else if (event.key === "Enter" && open && active >= 0) {
        event.preventDefault();
        setView(closedState());
        navigate(items[active].href);
      } else if (event.key === "Escape" && open) {
        event.preventDefault(); // a search box's Esc would also clear what was typed
        close();
      }
    };
    const onBlur = (event) => {
      if (ours(event)) window.setTimeout(() => document.activeElement !== box() && close(), 150);
    };
    const onFocus = (event) => {
      const { items } = current.current;
      if (ours(event) && items.length && event.target.value.trim()) setView({ items, open: true, active: -1 });
    };
    document.addEventListener("input", onInput, true);
    document.addEventListener("keydown", onKeyDown, true);
    document.addEventListener("focusout", onBlur, true);
    document.addEventListener("focusin", onFocus, true);
    // Typed before the app started: no input event will come for it.
    const input = box();
    if (input && document.activeElement === input && input.value.trim()) ask(input.value);
    return () => {
      window.clearTimeout(timer);
      controller?.abort();
      document.removeEventListener("input", onInput, true);
      document.removeEventListener("keydown", onKeyDown, true);
      document.removeEventListener("focusout", onBlur, true);
      document.removeEventListener("focusin", onFocus, true);
    };
  }, [inputId, endpoint, navigate]);

  useEffect(() => {
    const input = document.getElementById(inputId);
    if (!input) return;
    input.setAttribute("aria-expanded", view.open ? "true" : "false");
    if (view.open && view.active >= 0) input.setAttribute("aria-activedescendant", `${listId}-${view.active}`);
    else input.removeAttribute("aria-activedescendant");
  }, [inputId, listId, view.open, view.active]);

  // A new page closes the list.
  useEffect(() => {
    setView((was) => (was.open ? closedState() : was));
  }, [location.pathname, location.search]);

  const choose = (item) => {
    setView(closedState());
    navigate(item.href);
  };
  return (
    <ul role="listbox" id={listId} aria-label={label} hidden={!view.open} className="suggest-list">
      {view.items.map((item, index) => (
        <li
          key={`${item.kind}:${item.href}`}
          id={`${listId}-${index}`}
          role="option"
          aria-selected={index === view.active}
          className="suggest-option"
          // Keep the focus in the box, so the list stays until the choice is made.
          onPointerDown={(event) => event.preventDefault()}
          onClick={() => choose(item)}
        >
          <span className="suggest-label">{item.label}</span>
          <span className="suggest-kind">{item.kind === "author" ? "作者" : "作品"}</span>
        </li>
      ))}
    </ul>
  );
}
