"""The HTML pages of the web table: Jinja2 templates in `templates/`, escaped automatically.

The pages are shells: what a table shows comes from its websocket messages, drawn by the page's
JavaScript in `static/`; the templates only carry the table's address and a few words.
"""
from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

_ENV = Environment(loader=FileSystemLoader(Path(__file__).parent / "templates"),
                   autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)


def render(name: str, **context) -> str:
    return _ENV.get_template(name).render(**context)
