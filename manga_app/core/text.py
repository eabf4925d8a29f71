"""Text from outside (file names, series.json, ComicInfo, clients) made safe
for where it goes: the catalogue, XML documents, log lines and the
operator's terminal. Pure module.

XML 1.0 allows only #x9 #xA #xD #x20-#xD7FF #xE000-#xFFFD #x10000-#x10FFFF;
one C0 control or U+FFFE in a title makes a whole feed unreadable, so the
importer keeps such characters out of the catalogue and every XML writer
drops what slipped past (defence in depth)."""

from __future__ import annotations

import re

__all__ = ["bounded", "clean_line", "clean_block", "has_surrogate", "shown", "xml_safe"]

# Controls (C0, DEL, C1), surrogates and non-characters: never part of a name or summary.
_UNWANTED = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")
_UNWANTED_IN_BLOCK = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")
_WHITESPACE_CONTROLS = re.compile("[\t\n\r\x0b\x0c\x85]+")
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _drop_planes_nonchars(text: str) -> str:
    # U+1FFFE, U+2FFFF, ...: the last two code points of every plane.
    return "".join(c for c in text if (ord(c) & 0xFFFE) != 0xFFFE) if any(ord(c) > 0xFFFF for c in text) else text


def has_surrogate(text: str) -> bool:
    """A lone surrogate: an undecodable byte of a file name (surrogateescape) or a broken JSON escape."""
    return _SURROGATE.search(text) is not None


def clean_line(text: str) -> str:
    """A one-line name: line breaks and tabs become one space, other controls
    and non-characters are dropped, the ends stripped."""
    text = _WHITESPACE_CONTROLS.sub(" ", text)
    return _drop_planes_nonchars(_UNWANTED.sub("", text)).strip()


def clean_block(text: str) -> str:
    """A summary: line breaks (any convention) become \\n, tabs stay, other
    controls and non-characters are dropped, the ends stripped."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x85", "\n")
    return _drop_planes_nonchars(_UNWANTED_IN_BLOCK.sub("", text)).strip()


def xml_safe(text: str) -> str:
    """`text` without the characters XML 1.0 cannot hold (escaping is the writer's job)."""
    return _NOT_XML.sub("", text)


def shown(text: str) -> str:
    """`text` for a terminal or a log line: controls, surrogates and
    non-characters written as escapes (a surrogate-escaped byte as \\xNN),
    so a name can neither move the cursor nor forge a line."""
    def escape(match: re.Match) -> str:
        code = ord(match.group())
        if 0xDC80 <= code <= 0xDCFF:
            return f"\\x{code - 0xDC00:02x}"
        return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"

    return _UNWANTED.sub(escape, text)


def bounded(text: str, limit: int = 200) -> str:
    """`text` for one log field: escaped (see shown) and cut to `limit` characters, saying how much was cut."""
    escaped = shown(text)
    if len(escaped) <= limit:
        return escaped
    return f"{escaped[:limit]}… [{len(escaped) - limit} more characters]"
