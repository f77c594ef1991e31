"""User templates (`sheet --template`): kept inside their folder and within their limits.

Each limit is reached by the template that used to exhaust memory or run for ever, and the
message names the limit. The templates render with a small context (the limits do not depend on
the data), so these tests take well under a second each.
"""
from __future__ import annotations

import os
import time

import pytest

from unodsl.sheets import user_template
from unodsl.sheets.sheet import SheetError, render_user

CTX = {"title": "Classic UNO", "rows": [{"title": "Number"}], "page_size": "A4"}


def render(tmp_path, source: str, name: str = "t.md.j2") -> str:
    tpl = tmp_path / name
    tpl.write_text(source, encoding="utf-8")
    return render_user(CTX, tpl, "md")


def refused(tmp_path, source: str) -> str:
    with pytest.raises(SheetError) as err:
        render(tmp_path, source)
    return str(err.value)


def test_a_plain_template_renders(tmp_path):
    assert render(tmp_path, "# {{ title }}\n{% for r in rows %}- {{ r.title }}\n{% endfor %}") == \
        "# Classic UNO\n- Number\n"


def test_a_symlink_in_the_folder_reads_nothing_outside_it(tmp_path):
    os.symlink("/", tmp_path / "rootfs")
    (tmp_path / "inside.j2").write_text("ok", encoding="utf-8")
    msg = refused(tmp_path, "{% include 'rootfs/etc/passwd' %}")
    assert "rootfs/etc/passwd" in msg and "outside the folder is refused" in msg
    assert "root:" not in msg
    assert render(tmp_path, "{% include 'inside.j2' %}") == "ok"


def test_a_symlinked_file_pointing_outside_is_refused(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the secret", encoding="utf-8")
    folder = tmp_path / "templates"
    folder.mkdir()
    os.symlink(secret, folder / "leak.j2")
    with pytest.raises(SheetError) as err:
        render(folder, "{% include 'leak.j2' %}")
    assert "the secret" not in str(err.value)


def test_bundled_templates_can_still_be_included(tmp_path):
    assert "color" in render(tmp_path, "{% include '_style.css.j2' %}")


@pytest.mark.parametrize("source, limit", [
    ("{{ 'x' * 10**9 }}", "output limit"),
    ("{{ [1] * 10**9 }}", "output limit"),
    ("{{ 'a' | center(10**9) }}", "output limit"),
    ("{{ 'a'.center(10**9) }}", "output limit"),
    ("{{ '%0999999999d' % 1 }}", "output limit"),
    ("{% for i in range(10**9) %}x{% endfor %}", "output limit"),
    ("{% for i in range(200000) %}x{% endfor %}", "100000"),
    ("{{ 9 ** 999 }}", "integer size limit"),
    ("{{ (9 ** 99) * (9 ** 99) }}", "integer size limit"),
    ("{% for i in range(100000) %}{{ 'x' * 1000 }}{% endfor %}", "output limit"),
])
def test_templates_that_would_exhaust_memory_stop_at_a_named_limit(tmp_path, source, limit):
    start = time.monotonic()
    msg = refused(tmp_path, source)
    assert limit in msg, msg
    assert "t.md.j2" in msg
    assert time.monotonic() - start < 4


def test_a_template_that_runs_for_ever_stops_at_the_time_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(user_template, "TIME_LIMIT", 0.5)
    start = time.monotonic()
    msg = refused(tmp_path, "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}")
    assert "time limit" in msg and "t.md.j2" in msg
    assert time.monotonic() - start < 3


def test_a_template_that_doubles_a_text_stops_at_a_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(user_template, "MEMORY_LIMIT", 200 << 20)
    msg = refused(tmp_path, "{% set ns = namespace(s='x') %}{% for i in range(40) %}"
                            "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}")
    assert "memory limit" in msg or "time limit" in msg


def test_the_template_file_itself_is_read_with_bounds(tmp_path):
    fifo = tmp_path / "pipe.md.j2"
    os.mkfifo(fifo)
    with pytest.raises(SheetError) as err:
        render_user(CTX, fifo, "md")
    assert "pipe" in str(err.value)
    with pytest.raises(SheetError) as err:
        render_user(CTX, tmp_path, "md")
    assert "a directory" in str(err.value)


def test_jinja_is_a_version_without_the_known_sandbox_escapes():
    from importlib.metadata import requires, version
    major, minor, patch = (int(x) for x in version("jinja2").split(".")[:3])
    assert (major, minor, patch) >= (3, 1, 6)
    assert any(r.replace(" ", "").lower().startswith("jinja2>=3.1.6") for r in requires("unodsl"))
