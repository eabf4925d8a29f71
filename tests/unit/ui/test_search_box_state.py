"""The header search box's submit (manga_app/ui/search_box_state.py): the
form's data as Reflex's form sends it, or whatever a client sends instead."""

from __future__ import annotations

import pytest
from reflex.state import State

from manga_app.core import routes
from manga_app.ui.search_box_state import MAX_QUERY_LENGTH, SearchBoxState
from tests.unit.accounts.visitors import messages


def _box() -> SearchBoxState:
    return State().get_substate(SearchBoxState.get_full_name().split("."))


def _redirect(result: object) -> str:
    return next(str(value._var_value) for name, value in result.args if name._js_expr == "path")


def test_a_query_opens_the_search_page_with_its_spaces_collapsed() -> None:
    assert _redirect(_box().submit({"q": "  進撃の   巨人 "})) == routes.search_url(q="進撃の 巨人")


def test_a_long_query_is_cut_rather_than_refused() -> None:
    assert _redirect(_box().submit({"q": "あ" * (MAX_QUERY_LENGTH + 50)})) == routes.search_url(q="あ" * MAX_QUERY_LENGTH)


@pytest.mark.parametrize("form_data", [{"q": "   "}, {}, {"q": None}, "進撃", None, ["q"]])
def test_nothing_to_search_for_says_so_in_japanese(form_data: object) -> None:
    assert messages(_box().submit(form_data)) == ["warning: 検索語を入力してください タイトル・作者・よみがなで探せます。"]
