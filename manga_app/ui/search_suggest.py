"""Suggestions under a search box as the visitor types (assets/js/suggest.jsx),
asked of `/suggest.json` (web/suggest.py): the box stays a plain input,
marked as the combobox whose listbox this is."""

import reflex as rx

from manga_app.core import routes


class SearchSuggest(rx.Component):
    library = rx.asset("js/suggest.jsx").importable_path
    tag = "SearchSuggest"

    input_id: rx.Var[str]
    list_id: rx.Var[str]
    endpoint: rx.Var[str]
    label: rx.Var[str]


def combobox_props(input_id: str) -> dict:
    """What the box says of itself, in the server's HTML already: a combobox
    whose list (suggestion_list) is closed until suggestions come."""
    return {
        "id": input_id,
        # A text box: HTML allows the combobox role on it, not on a search box
        # (the Nu Html Checker refuses it there); the phone's keyboard still
        # shows its search key (enterkeyhint).
        "type": "text",
        "role": "combobox",
        "aria_autocomplete": "list",
        "aria_expanded": "false",
        "aria_controls": list_id(input_id),
    }


def list_id(input_id: str) -> str:
    return f"{input_id}-suggestions"


def suggestion_list(input_id: str) -> rx.Component:
    """The listbox of the box whose id is `input_id` (placed right after it)."""
    return SearchSuggest.create(input_id=input_id, list_id=list_id(input_id), endpoint=routes.SUGGEST, label="検索候補")
