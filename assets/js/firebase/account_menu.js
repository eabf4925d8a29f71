// The header's account menu is a <details>: it opens without a server round
// trip and without JavaScript. These close it the way a menu is expected to
// close: a click outside it, Escape, or choosing one of its items.
const MENU = "details.account-details";

export function closeAccountMenus(except = null) {
  for (const menu of document.querySelectorAll(`${MENU}[open]`)) {
    if (menu !== except) menu.removeAttribute("open");
  }
}

function onClick(event) {
  const menu = event.target.closest && event.target.closest(MENU);
  const item = event.target.closest && event.target.closest(".account-menu a, .account-menu button");
  closeAccountMenus(item ? null : menu);
}

function onKey(event) {
  if (event.key !== "Escape") return;
  const open = document.querySelector(`${MENU}[open]`);
  if (!open) return;
  closeAccountMenus();
  const summary = open.querySelector("summary");
  if (summary) summary.focus();
}

if (typeof document !== "undefined") {
  document.addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);
}
