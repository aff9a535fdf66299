"""The page a browser gets for what is not there (a path that is no page, a table never
opened): it says so in words from the pages' catalogues and links back to the floor.

The words are written here in the language the address asks for (``?lang=``), else English;
the page's script then puts them in the reader's own choice (kept in the browser, which the
server cannot see) from the same catalogue message and the same values."""

from __future__ import annotations

import html
import json
import re
from functools import cache
from importlib import resources
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse

_STATIC = Path(str(resources.files("sicbo.gateway").joinpath("static")))
LANGUAGES = ("en", "zh-Hant", "ms")
#: The words of the page besides its message.
_WORDS = ("notfound.page-title", "notfound.back")
#: A hole of the page or of a message: {name}.
_HOLE = re.compile(r"\{([a-z.-]+)\}")
_HEADINGS = {"notfound.path": "notfound.no-page", "notfound.table": "notfound.no-table"}


@cache
def _catalogue(language: str) -> dict[str, str]:
    text = (_STATIC / "i18n" / f"{language}.json").read_text(encoding="utf-8")
    return dict(json.loads(text))


@cache
def _template() -> str:
    return (_STATIC / "not-found.html").read_text(encoding="utf-8")


def _message(language: str, key: str, params: dict[str, str]) -> str:
    text = _catalogue(language).get(key) or _catalogue("en")[key]
    return _HOLE.sub(lambda hole: params.get(hole[1], hole[0]), text)


def missing_page(request: Request, key: str, status: int = 404, **params: str) -> HTMLResponse:
    """A page (``status``, 404 unless told) whose message is the catalogue's ``key`` with
    ``params`` filled (each value escaped: an address is whatever anyone typed)."""
    asked = request.query_params.get("lang", "en")
    language = asked if asked in LANGUAGES else "en"
    heading = _HEADINGS[key]
    holes = {
        "language": language,
        "heading-key": heading,
        "heading": _message(language, heading, {}),
        "message-key": key,
        "message-args": json.dumps(params),
        "message": _message(language, key, params),
    } | {word: _message(language, word, {}) for word in _WORDS}
    # One pass: a value (an address) that looks like a hole stays as it was typed.
    body = _HOLE.sub(lambda hole: html.escape(holes.get(hole[1], hole[0]), quote=True), _template())
    return HTMLResponse(body, status_code=status, headers={"cache-control": "no-cache"})
