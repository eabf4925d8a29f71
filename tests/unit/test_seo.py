"""Table-driven tests for manga_app.seo: hosts, the robots rule, JSON-LD and
the head HTML written into the first response."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest

from manga_app.seo import (
    INDEX_FOLLOW,
    NOINDEX_NOFOLLOW,
    REMOVE_SERVER_HEAD_JS,
    SCRIPTS,
    SSR_MARKER,
    STYLES,
    PageHead,
    absolute_url,
    host_name,
    inline_script,
    inline_style,
    is_production_host,
    json_ld_text,
    render_head_html,
    robots_for,
)

ORIGIN = "https://manga.example.jp"


def cases(table):
    return [pytest.param(*row[1:], id=row[0]) for row in table]


# --------------------------------------------------------------------------
# host_name / is_production_host
# --------------------------------------------------------------------------

HOST_NAME_CASES = [
    ("plain", "example.com", "example.com"),
    ("port", "example.com:8080", "example.com"),
    ("https-port", "Example.COM:443", "example.com"),
    ("upper-case", "EXAMPLE.COM", "example.com"),
    ("surrounding-space", "  example.com:3000 ", "example.com"),
    ("localhost-port", "localhost:3000", "localhost"),
    ("ipv4-port", "127.0.0.1:3000", "127.0.0.1"),
    ("ipv6", "[::1]", "[::1]"),
    ("ipv6-port", "[::1]:3000", "[::1]"),
    ("ipv6-upper-case-port", "[2001:DB8::1]:8443", "[2001:db8::1]"),
    ("empty", "", ""),
]


@pytest.mark.parametrize(("host", "expected"), cases(HOST_NAME_CASES))
def test_the_host_name_drops_the_port_and_case(host, expected):
    assert host_name(host) == expected


PRODUCTION_HOST_CASES = [
    ("same-host", "manga.example.jp", "manga.example.jp", True),
    ("port-on-request", "manga.example.jp:443", "manga.example.jp", True),
    ("port-on-setting", "manga.example.jp", "manga.example.jp:8443", True),
    ("different-ports", "manga.example.jp:80", "manga.example.jp:8443", True),
    ("request-upper-case", "MANGA.Example.JP", "manga.example.jp", True),
    ("setting-upper-case", "manga.example.jp", "Manga.Example.JP", True),
    ("ipv6", "[::1]:3000", "[::1]", True),
    ("other-host", "staging.example.jp", "manga.example.jp", False),
    ("subdomain", "www.manga.example.jp", "manga.example.jp", False),
    ("suffix-trick", "manga.example.jp.evil.com", "manga.example.jp", False),
    ("prefix-trick", "evilmanga.example.jp", "manga.example.jp", False),
    ("localhost", "localhost:3000", "manga.example.jp", False),
    ("missing-host-header", "", "manga.example.jp", False),
    ("empty-production-host", "manga.example.jp", "", False),
    ("both-empty", "", "", False),
    ("localhost-with-empty-production-host", "localhost:3000", "", False),
]


@pytest.mark.parametrize(("host", "production_host", "expected"), cases(PRODUCTION_HOST_CASES))
def test_only_the_configured_host_is_production(host, production_host, expected):
    assert is_production_host(host, production_host) is expected


# --------------------------------------------------------------------------
# robots_for
# --------------------------------------------------------------------------


def a_head(**overrides) -> PageHead:
    values = {"title": "ジャンル一覧 | 漫画ひろば", "description": "説明", "path": "/genres"}
    values.update(overrides)
    return PageHead(**values)


ROBOTS_CASES = [
    ("indexable-on-production", True, "manga.example.jp", "manga.example.jp", INDEX_FOLLOW),
    ("indexable-on-production-with-port", True, "manga.example.jp:443", "manga.example.jp", INDEX_FOLLOW),
    ("not-indexable-on-production", False, "manga.example.jp", "manga.example.jp", NOINDEX_NOFOLLOW),
    ("indexable-on-staging", True, "staging.example.jp", "manga.example.jp", NOINDEX_NOFOLLOW),
    ("indexable-on-localhost", True, "localhost:3000", "manga.example.jp", NOINDEX_NOFOLLOW),
    ("indexable-without-production-host", True, "manga.example.jp", "", NOINDEX_NOFOLLOW),
    ("not-indexable-anywhere", False, "localhost:3000", "", NOINDEX_NOFOLLOW),
]


@pytest.mark.parametrize(("indexable", "host", "production_host", "expected"), cases(ROBOTS_CASES))
def test_robots_say_index_follow_only_for_an_indexable_page_on_production(
    indexable, host, production_host, expected
):
    head = a_head(indexable=indexable)
    assert robots_for(head, host=host, production_host=production_host) == expected


# --------------------------------------------------------------------------
# absolute_url
# --------------------------------------------------------------------------

ABSOLUTE_URL_CASES = [
    ("root", ORIGIN, "/", f"{ORIGIN}/"),
    ("path", ORIGIN, "/genres", f"{ORIGIN}/genres"),
    ("origin-trailing-slash", ORIGIN + "/", "/genres", f"{ORIGIN}/genres"),
    ("path-without-slash", ORIGIN, "icons/og.png", f"{ORIGIN}/icons/og.png"),
    ("origin-slash-and-bare-path", ORIGIN + "/", "icons/og.png", f"{ORIGIN}/icons/og.png"),
    ("localhost-origin", "http://localhost:3000", "/manga/abc", "http://localhost:3000/manga/abc"),
    ("encoded-path", ORIGIN, "/genre/%E3%83%9B", f"{ORIGIN}/genre/%E3%83%9B"),
    ("https-url-kept", ORIGIN, "https://cdn.example.com/a.png", "https://cdn.example.com/a.png"),
    ("http-url-kept", ORIGIN, "http://cdn.example.com/a.png", "http://cdn.example.com/a.png"),
]


@pytest.mark.parametrize(("origin", "path", "expected"), cases(ABSOLUTE_URL_CASES))
def test_an_absolute_url_is_the_origin_plus_the_path(origin, path, expected):
    assert absolute_url(origin, path) == expected


# --------------------------------------------------------------------------
# json_ld_text
# --------------------------------------------------------------------------

WEBSITE = {"@context": "https://schema.org", "@type": "WebSite", "name": "漫画ひろば"}
CRUMBS = {"@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": []}
BREAKOUT = "</script><script>alert('x')</script><!--"


def test_no_json_ld_blocks_give_no_text():
    assert json_ld_text(()) == ""
    assert json_ld_text([]) == ""


@pytest.mark.parametrize("blocks", [pytest.param((WEBSITE,), id="tuple"), pytest.param([WEBSITE], id="list")])
def test_one_json_ld_block_is_written_as_that_object(blocks):
    assert json.loads(json_ld_text(blocks)) == WEBSITE


def test_several_json_ld_blocks_are_written_as_one_graph():
    document = json.loads(json_ld_text((WEBSITE, CRUMBS)))
    assert document == {"@context": "https://schema.org", "@graph": [WEBSITE, CRUMBS]}


UNSAFE_VALUE_CASES = [
    ("script-breakout", BREAKOUT),
    ("upper-case-breakout", "</SCRIPT><img src=x onerror=alert(1)>"),
    ("comment-open", "<!-- x"),
    ("ampersand-entity", "a &amp; b & c"),
    ("angle-brackets", "1 < 2 > 0"),
]


@pytest.mark.parametrize("value", cases(UNSAFE_VALUE_CASES))
def test_a_json_ld_value_cannot_break_out_of_its_script(value):
    block = {"@type": "Book", "name": value}
    text = json_ld_text((block, {"@type": "Thing", "description": value}))
    assert "<" not in text
    assert ">" not in text
    assert "&" not in text
    # ...and it still decodes to the original value.
    assert json.loads(text)["@graph"][0]["name"] == value


def test_json_ld_keeps_japanese_text_readable():
    text = json_ld_text(({"name": "呪術廻戦"},))
    assert "呪術廻戦" in text


# --------------------------------------------------------------------------
# render_head_html
# --------------------------------------------------------------------------


class _Tags(HTMLParser):
    """Every start tag (name, attrs) and the text inside each tag, in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, {key: value or "" for key, value in attrs}))
        self.text.append("")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_data(self, data):
        if self.text:
            self.text[-1] += data


def parse(html: str) -> _Tags:
    parser = _Tags()
    parser.feed(html)
    parser.close()
    return parser


def meta_content(parsed: _Tags, attribute: str, key: str) -> list[str]:
    return [attrs["content"] for tag, attrs in parsed.tags if tag == "meta" and attrs.get(attribute) == key]


def render(head: PageHead | None = None, *, origin: str = ORIGIN, robots: str = INDEX_FOLLOW) -> str:
    return render_head_html(head or a_head(), origin=origin, robots=robots, site_name="漫画ひろば")


NASTY_TITLE = 'Tom & Jerry <b>"x"</b> \'y\''
NASTY_DESCRIPTION = '"quoted" <script>alert(1)</script> & more'


def test_the_head_has_exactly_one_title():
    html = render()
    assert html.count("<title>") == 1
    assert html.count("</title>") == 1
    assert [tag for tag, _ in parse(html).tags].count("title") == 1


def test_the_title_is_html_escaped():
    html = render(a_head(title=NASTY_TITLE))
    assert "<title>Tom &amp; Jerry &lt;b&gt;&quot;x&quot;&lt;/b&gt; &#x27;y&#x27;</title>" in html
    parsed = parse(html)
    title_index = [tag for tag, _ in parsed.tags].index("title")
    assert parsed.text[title_index] == NASTY_TITLE


@pytest.mark.parametrize(
    ("attribute", "key"),
    [
        pytest.param("name", "description", id="description"),
        pytest.param("property", "og:description", id="og-description"),
    ],
)
def test_the_description_is_html_escaped_inside_its_attribute(attribute, key):
    html = render(a_head(description=NASTY_DESCRIPTION))
    assert "<script>alert" not in html
    assert '"quoted"' not in html
    assert meta_content(parse(html), attribute, key) == [NASTY_DESCRIPTION]


def test_og_title_is_the_unescaped_title():
    assert meta_content(parse(render(a_head(title=NASTY_TITLE))), "property", "og:title") == [NASTY_TITLE]


CANONICAL_CASES = [
    ("root", ORIGIN, "/", f"{ORIGIN}/"),
    ("page", ORIGIN, "/genres", f"{ORIGIN}/genres"),
    ("origin-trailing-slash", ORIGIN + "/", "/manga/abc", f"{ORIGIN}/manga/abc"),
    ("encoded-genre", ORIGIN, "/genre/%E3%83%9B", f"{ORIGIN}/genre/%E3%83%9B"),
    ("path-with-quote", ORIGIN, '/a"b&c', f'{ORIGIN}/a"b&c'),
    ("local", "http://localhost:3000", "/abc-ch-1", "http://localhost:3000/abc-ch-1"),
]


@pytest.mark.parametrize(("origin", "path", "expected"), cases(CANONICAL_CASES))
def test_the_canonical_link_and_og_url_are_the_origin_plus_the_path(origin, path, expected):
    parsed = parse(render(a_head(path=path), origin=origin))
    canonicals = [
        attrs["href"] for tag, attrs in parsed.tags if tag == "link" and attrs.get("rel") == "canonical"
    ]
    assert canonicals == [expected]
    assert meta_content(parsed, "property", "og:url") == [expected]


@pytest.mark.parametrize("robots", [INDEX_FOLLOW, NOINDEX_NOFOLLOW])
def test_the_robots_meta_carries_the_given_rule(robots):
    assert meta_content(parse(render(robots=robots)), "name", "robots") == [robots]


def test_the_og_image_is_absolute():
    parsed = parse(render(a_head(image="/icons/cover.png")))
    assert meta_content(parsed, "property", "og:image") == [f"{ORIGIN}/icons/cover.png"]


def test_every_meta_key_appears_once():
    parsed = parse(render(a_head(json_ld=(WEBSITE,))))
    keys = [attrs.get("name") or attrs.get("property") for tag, attrs in parsed.tags if tag == "meta"]
    assert len(keys) == len(set(keys))
    assert {"description", "robots", "og:title", "og:url", "og:image"} <= set(keys)


@pytest.mark.parametrize(
    "json_ld",
    [
        pytest.param((), id="no-json-ld"),
        pytest.param((WEBSITE,), id="one-block"),
        pytest.param((WEBSITE, CRUMBS), id="graph"),
    ],
)
def test_every_tag_but_the_title_is_marked(json_ld):
    parsed = parse(render(a_head(json_ld=json_ld)))
    tags = parsed.tags
    assert tags[0][0] == "title"
    assert SSR_MARKER not in tags[0][1]
    rest = tags[1:]
    assert len(rest) >= 11  # ten <meta> and the canonical link at least
    unmarked = [(tag, attrs) for tag, attrs in rest if SSR_MARKER not in attrs]
    assert unmarked == []


def test_the_server_writes_no_inline_script_react_would_not_expect():
    # Only the marked JSON-LD block, which the app's own script removes
    # before hydration; any other inline script breaks hydration (React #418).
    parsed = parse(render(a_head(json_ld=(WEBSITE,))))
    scripts = [attrs for tag, attrs in parsed.tags if tag == "script"]
    assert scripts == [{"type": "application/ld+json", SSR_MARKER: ""}]


def test_the_removal_script_removes_the_title_and_the_marked_tags():
    assert f"querySelectorAll('head>title,[{SSR_MARKER}]')" in REMOVE_SERVER_HEAD_JS
    assert ".remove()" in REMOVE_SERVER_HEAD_JS


def test_json_ld_is_written_in_a_marked_script_and_decodes_back():
    parsed = parse(render(a_head(json_ld=(WEBSITE, CRUMBS))))
    scripts = [
        (attrs, parsed.text[index])
        for index, (tag, attrs) in enumerate(parsed.tags)
        if tag == "script" and attrs.get("type") == "application/ld+json"
    ]
    assert len(scripts) == 1
    attrs, text = scripts[0]
    assert SSR_MARKER in attrs
    assert json.loads(text)["@graph"] == [WEBSITE, CRUMBS]


def test_without_json_ld_there_is_no_json_ld_script():
    assert "application/ld+json" not in render(a_head(json_ld=()))


def test_a_json_ld_value_cannot_close_the_script_in_the_head():
    html = render(a_head(json_ld=({"@type": "Book", "name": BREAKOUT},)))
    # Only the one script the renderer writes is opened and closed.
    assert html.lower().count("</script>") == 1
    assert html.lower().count("<script") == 1


# --------------------------------------------------------------------------
# the reader's first paint
# --------------------------------------------------------------------------

FIRST_PAGE = {
    "key": "s/1",
    "slug": "s",
    "number": "1",
    "url": "/media/ab/cd-w1200.webp",
    "saver_url": "/media/ab/cd-w720.webp",
    "width": 720,
    "height": 1024,
    "webtoon": False,
    "direction": "rtl",
}
# What the reader's cookie told the server: a browser that has read here, so
# its stored settings decide the first paint (the head's script draws it).
RETURNING = {"saver": False, "key": "s/2", "page": 3}


def test_a_head_without_a_first_page_has_no_first_paint():
    assert "readerFirstPaint" not in render(a_head())


def test_a_new_visitors_chapter_head_has_no_first_paint_script():
    # The server writes that first paint as HTML in the body (web/first_paint.reader_html).
    html = render(PageHead(title="t", description="d", path="/s-ch-1", first_paint={**FIRST_PAGE, "visitor": None}))
    assert "<script>" not in html and "readerFirstPaint" not in html


def test_a_returning_visitors_chapter_head_paints_its_first_page_with_a_script_that_removes_itself():
    first_page = {**FIRST_PAGE, "visitor": RETURNING}
    html = render(PageHead(title="t", description="d", path="/s-ch-1", first_paint=first_page))
    parsed = parse(html)
    inline = [parsed.text[index] for index, (tag, attrs) in enumerate(parsed.tags) if tag == "script" and not attrs]
    assert len(inline) == 1
    script = inline[0]
    # It is gone before React hydrates the head (an inline script still there
    # would not be one React rendered: React #418).
    assert script.startswith("(function(self){try{") and script.endswith("}finally{self.remove()}})(document.currentScript)")
    assert "function readerFirstPaint(data, css)" in script and "function paintGate(images)" in script
    call = script[script.rindex("readerFirstPaint(") + len("readerFirstPaint("): script.rindex(");if (images)")]
    data, css = json.loads(f"[{call}]")
    assert data == first_page
    assert "function watchReaderFirstPaint(root)" in script
    # With the styles of the reader's pages: the only ones its first frame has.
    source = (STYLES / "reader_pages.css").read_text(encoding="utf-8")
    rules = [line for line in source.splitlines() if line.startswith(".")]
    assert rules and all(rule in css for rule in rules)
    assert "/*" not in css and ".reader-first-paint {" in css
    # The app's start waits for the page it painted, when it painted one.
    assert script.endswith("if (images) window.__firstPaint = paintGate(images)}finally{self.remove()}})(document.currentScript)")


def test_a_first_page_value_cannot_close_the_script():
    nasty = {**FIRST_PAGE, "url": f"/media/{BREAKOUT}", "visitor": RETURNING}
    html = render(PageHead(title="t", description="d", path="/s-ch-1", first_paint=nasty))
    assert html.lower().count("</script>") == 1
    assert BREAKOUT not in html


def test_a_first_page_the_server_knows_is_preloaded_before_anything_else():
    head = PageHead(title="t", description="d", path="/s-ch-1", first_paint={**FIRST_PAGE, "preload": "/media/ab/cd-w720.webp"})
    parsed = parse(render(head))
    tag, attrs = parsed.tags[0]
    assert tag == "link"
    assert attrs == {"rel": "preload", "as": "image", "fetchpriority": "high", "href": "/media/ab/cd-w720.webp"}
    assert [tag for tag, _ in parsed.tags].count("link") == 2  # the preload and the canonical link
    assert "rel=\"preload\"" not in render(PageHead(title="t", description="d", path="/s-ch-1", first_paint=FIRST_PAGE))


def test_inlined_scripts_leave_their_comment_lines_out_and_keep_their_code():
    source = (SCRIPTS / "paint_gate.js").read_text(encoding="utf-8")
    inlined = inline_script("paint_gate.js")
    assert not any(line.lstrip().startswith("//") for line in inlined.splitlines())
    code = [line for line in source.splitlines() if not line.lstrip().startswith("//")]
    assert inlined.splitlines() == code


def test_a_script_with_a_template_literal_is_not_inlined(tmp_path, monkeypatch):
    # A comment-like line inside a backquoted string would be cut out.
    (tmp_path / "odd.js").write_text("var s = `\n// text, not a comment\n`;\n", encoding="utf-8")
    monkeypatch.setattr("manga_app.seo.SCRIPTS", tmp_path)
    inline_script.cache_clear()
    try:
        with pytest.raises(ValueError, match="cannot be inlined"):
            inline_script("odd.js")
    finally:
        inline_script.cache_clear()


def test_a_stylesheet_that_could_close_its_style_element_is_not_inlined(tmp_path, monkeypatch):
    (tmp_path / "odd.css").write_text('.a::after { content: "</style><script>x</script>"; }\n', encoding="utf-8")
    monkeypatch.setattr("manga_app.seo.STYLES", tmp_path)
    inline_style.cache_clear()
    try:
        with pytest.raises(ValueError, match="cannot be inlined"):
            inline_style("odd.css")
    finally:
        inline_style.cache_clear()
