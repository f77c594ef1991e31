"""Rule sheets: every bundled ruleset and module, in every format, says every rule it plays.

What a sheet must contain is computed from the ruleset's composed declarations (the authors' own
words straight from the syntax tree, and the sentence `describe` makes of each declaration), not
from a list written here. Golden files pin the Markdown of classic and killer
(UNODSL_UPDATE_GOLDEN=1 rewrites them). Browser tests print the HTML with Debian's chromium, as
people will: they are skipped where /usr/bin/chromium is missing (CI installs it).
"""
from __future__ import annotations

import html as htmlmod
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from unodsl.compile.loader import bundled_names, load
from unodsl.front.cli import main
from unodsl.lang import ast as A
from unodsl.sheets import sheet
from unodsl.sheets.describe import Describer, words

HERE = Path(__file__).parent
GOLDEN = HERE / "golden"
CASES = [(name, kind) for name, kind, _ in bundled_names()]
IDS = [name for name, _ in CASES]
HAVE_WEASYPRINT = importlib.util.find_spec("weasyprint") is not None
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]


def rules_of(name, kind):
    return load("classic", with_=[name]) if kind == "module" else load(name)


def sheet_words(text: str, fmt: str) -> str:
    """The words a reader sees, as one lower-case string (tags, styles and escapes removed)."""
    if fmt == "html":
        text = re.sub(r"(?s)<style.*?</style>|<title>.*?</title>", " ", text)
        text = re.sub(r"<[^>]+>", " ", text)
        text = htmlmod.unescape(text)
    else:
        text = re.sub(r"\\(.)", r"\1", text)
    return " " + " ".join(words(text)) + " "


def phrase(text: str) -> str:
    return " " + " ".join(words(text)) + " "


def expected_texts(rules) -> list:
    """(what, text) pairs every sheet of these rules must show, computed from the composed declarations."""
    d = Describer(rules)
    out = []
    for kind in dict.fromkeys(rules.cards.kind[i] for i in rules.deck):
        out.append(("card kind in the deck", d.kind_title(kind)))
    seen = set()
    for key, decl, unit in rules.composed.items:
        if id(decl) in seen:
            continue
        seen.add(id(decl))
        if isinstance(decl, A.CounterDecl) and decl.hidden:
            continue                          # bookkeeping the sheets never show
        # the authors' own words, read from the syntax tree
        doc = getattr(decl, "doc", "")
        if doc:
            out.append((f"doc of {key}", doc))
        if isinstance(decl, A.Window):
            out.append((f"title of {key}", decl.title))
            for item in decl.items:
                if isinstance(item, A.WindowAction) and item.doc:
                    out.append((f"doc of `{item.who} may {item.verb}`", item.doc))
        # the generated sentence of each rule
        keys = [k for k, other, _ in rules.composed.items if other is decl]
        for rule in d.declaration(decl, keys, unit):
            if rule.kind == "CardDecl":
                continue                      # cards are checked by their titles in the deck table
            if not rule.same:
                out.append((f"sentence of {key}", rule.sentence))
    for name, info in rules.options.items():
        if info.doc:
            out.append((f"doc of option {name}", info.doc))
    if rules.about:
        out.append(("about", rules.about))
    return out


def check_says_everything(rules, text: str, fmt: str) -> None:
    seen = sheet_words(text, fmt)
    missing = [(what, t) for what, t in expected_texts(rules) if phrase(t) not in seen]
    assert not missing, "the sheet leaves out:\n" + "\n".join(f"  {w}: {t}" for w, t in missing)


# ---- every ruleset and module, every format ---------------------------------------------------

@pytest.mark.parametrize("name,kind", CASES, ids=IDS)
@pytest.mark.parametrize("fmt", ["html", "md"])
def test_sheet_names_every_card_and_rule(name, kind, fmt):
    rules = rules_of(name, kind)
    text = sheet.make_sheet(name, fmt=fmt)
    check_says_everything(rules, text, fmt)
    if fmt == "html":
        assert text.lstrip().startswith("<!DOCTYPE html>")
        assert "<svg" in text
        # self-contained: nothing fetched from elsewhere
        assert not re.search(r"""(?i)(src|href)\s*=\s*["'](?!#)""", text)
        assert "@import" not in text and "url(" not in text


@pytest.mark.skipif(not HAVE_WEASYPRINT, reason="WeasyPrint is not installed (pip install unodsl[pdf])")
@pytest.mark.parametrize("name,kind", CASES, ids=IDS)
def test_pdf_sheet_names_every_card_and_rule(name, kind):
    from weasyprint import HTML
    rules = rules_of(name, kind)
    pdf = sheet.make_sheet(name, fmt="pdf")
    assert pdf.startswith(b"%PDF")
    document = HTML(string=sheet.make_sheet(name, fmt="html")).render()
    if not all(hasattr(page, "_page_box") for page in document.pages):
        pytest.skip("this WeasyPrint does not expose its laid-out pages")
    laid_out = " ".join(_box_text(page._page_box) for page in document.pages)
    check_says_everything(rules, laid_out, "md")


def _box_text(box) -> str:
    """The text WeasyPrint laid out on a page (what ends up printed)."""
    parts = []
    text = getattr(box, "text", None)
    if isinstance(text, str):
        parts.append(text)
    for child in getattr(box, "children", ()) or ():
        parts.append(_box_text(child))
    return " ".join(parts)


# ---- golden files --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["classic", "killer"])
def test_markdown_matches_golden_file(name):
    text = sheet.make_sheet(name, fmt="md")
    path = GOLDEN / f"{name}.md"
    if os.environ.get("UNODSL_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run with UNODSL_UPDATE_GOLDEN=1 to write it"
    assert text == path.read_text(encoding="utf-8"), (
        f"the {name} sheet differs from {path}; if the change is meant, run UNODSL_UPDATE_GOLDEN=1 pytest {__file__}")


# ---- what a variant changes -------------------------------------------------------------------------

def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_killer_lists_what_differs_from_classic():
    text = sheet.make_sheet("killer", fmt="md")
    assert "## What’s different from Classic UNO" in text
    part = sheet_words(_section(text, "## What’s different"), "md")
    killer = load("killer")
    # jump-in: its window; stacking: its counter, its play restriction and the draw cards it changes
    window = next(d for d in killer.composed.decls(A.Window) if d.name == "jump")
    counter = killer.composed.decls(A.CounterDecl)[0]
    restriction = killer.composed.decls(A.PlayOnly)[0]
    for text_ in (window.title, counter.name, counter.doc, restriction.doc, "Draw Two", "Wild Draw Four"):
        assert phrase(text_) in part, text_
    # and nothing classic already had unchanged: a rule killer takes as it is from classic (the very
    # same declaration) is not listed
    raw = _section(text, "## What’s different")
    classic_decls = {key: decl for key, decl, _ in load("classic").composed.items}
    same = [key for key, decl, _ in killer.composed.items
            if key[0] == "on play" and classic_decls.get(key) is decl]
    assert same, "killer keeps some classic effects"
    for key in same:
        kind = next(d.title for d in killer.composed.decls(A.CardDecl) if d.name == key[1].split()[0])
        assert f"Effect: {kind}." not in raw, kind
    assert "The dealer" not in raw
    # killer's own UNO window (it opens too when a passing of hands leaves a player one card) is
    assert "Out of turn: Saying UNO" in raw


def test_diff_entries_match_composed_declarations():
    rules, parent = load("killer"), load("classic")
    entries = sheet.diff(parent, rules)["entries"]
    changes = {e["change"] for e in entries}
    assert changes <= {"Adds", "Changes", "Removes"}
    titles = " ".join(e["title"] for e in entries)
    for name in ("red_zero", "silent_twos", "nines", "stack_cross"):
        assert name in titles
    assert not any(e["title"].startswith("Effect: Reverse") for e in entries)   # reverse: classic's own rule
    assert any(e["title"].startswith("Effect: Skip") for e in entries)          # skip: progressive's skip_bounce


def test_shuffle_hands_removes_the_swap_hands_card():
    entries = sheet.load_rules("shuffle-hands")
    d = sheet.diff(entries.parent, entries.rules)
    removed = [e["title"] for e in d["entries"] if e["change"] == "Removes"]
    assert any("Wild Swap Hands" in t for t in removed)


def test_classic_has_no_whats_different_section():
    for fmt in ("md", "html"):
        text = sheet.make_sheet("classic", fmt=fmt)
        assert "What’s different" not in text


def test_module_sheet_is_classic_plus_the_module():
    text = sheet.make_sheet("progressive", fmt="md")
    assert text.startswith("# Classic UNO + Progressive UNO")
    assert "## What’s different from Classic UNO" in text


# ---- options, stats, paper -----------------------------------------------------------------------

def test_options_decide_the_sentences():
    plain = sheet.make_sheet("classic", fmt="md")
    forced = sheet.make_sheet("classic", fmt="md", options={"force_play_drawn": "yes", "uno_penalty": "4"})
    assert "must play the drawn card" in forced and "must play the drawn card" not in plain
    assert "draws 4 cards (option uno\\_penalty)" in forced


def test_stats_box_uses_a_fixed_seed():
    one = sheet.make_sheet("classic", fmt="md", stats=3)
    two = sheet.make_sheet("classic", fmt="md", stats=3)
    assert "## How it plays" in one and one == two
    assert "From 3 simulated games of 4 players" in one


def test_paper_size_reaches_the_print_css():
    assert "size: A4" in sheet.make_sheet("classic", paper="a4")
    assert "size: Letter" in sheet.make_sheet("classic", paper="letter")


@pytest.mark.skipif(not HAVE_WEASYPRINT, reason="WeasyPrint is not installed (pip install unodsl[pdf])")
def test_classic_pdf_fits_two_a4_pages():
    from weasyprint import HTML
    for paper in ("a4", "letter"):
        document = HTML(string=sheet.make_sheet("classic", paper=paper)).render()
        assert len(document.pages) <= 2, f"{paper}: {len(document.pages)} pages"


# ---- the sandbox ---------------------------------------------------------------------------------

HOSTILE = [
    "{{ ''.__class__.__mro__ }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ cycler.__init__.__globals__ }}",
    "{{ title.__class__.__base__.__subclasses__() }}",
    "{{ contents.rows.__class__ }}",
    "{{ '{0.__class__.__mro__}'.format(title) }}",
    "{{ self._TemplateReference__context }}",
    "{% for row in contents.rows %}{{ row.pictures[0].__html__.__globals__ }}{% endfor %}",
    "{{ lipsum.__globals__['os'] }}",
    "{% include '/etc/passwd' %}",
]


@pytest.mark.parametrize("source", HOSTILE)
def test_hostile_template_cannot_reach_python(tmp_path, source, capsys):
    tpl = tmp_path / "evil.html.j2"
    tpl.write_text("<p>{{ title }}</p>\n" + source + "\n", encoding="utf-8")
    out = tmp_path / "out.html"
    code = main(["sheet", "classic", "--template", str(tpl), "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    assert str(tpl) in err
    assert not out.exists()
    assert "<class" not in err and "root:x" not in err


def test_broken_template_reports_its_line(tmp_path, capsys):
    tpl = tmp_path / "broken.md.j2"
    tpl.write_text("# {{ title }}\n\n{% for r in effects %}\n{{ r.title }\n{% endfor %}\n", encoding="utf-8")
    assert main(["sheet", "classic", "--template", str(tpl)]) == 2
    err = capsys.readouterr().err
    assert f"{tpl}:4" in err and "Traceback" not in err


def test_unknown_filter_reports_its_line(tmp_path, capsys):
    tpl = tmp_path / "filter.md.j2"
    tpl.write_text("# {{ title }}\n{{ about | no_such_filter }}\n", encoding="utf-8")
    assert main(["sheet", "classic", "--template", str(tpl)]) == 2
    err = capsys.readouterr().err
    assert f"{tpl}:2" in err and "no_such_filter" in err


def test_undefined_name_reports_its_line(tmp_path, capsys):
    tpl = tmp_path / "undef.md.j2"
    tpl.write_text("# {{ title }}\n\n{{ no_such_thing.title }}\n", encoding="utf-8")
    assert main(["sheet", "classic", "--template", str(tpl)]) == 2
    err = capsys.readouterr().err
    assert f"{tpl}:3" in err and "no_such_thing" in err


def test_user_template_gets_the_same_data(tmp_path, capsys):
    tpl = tmp_path / "mine.md.j2"
    tpl.write_text("{{ title }}: {% for r in contents.rows %}{{ r.title }}={{ r.count }};{% endfor %}\n"
                   "{% for e in effects %}{{ e.sentence }}\n{% endfor %}", encoding="utf-8")
    assert main(["sheet", "classic", "--template", str(tpl)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Classic UNO: Number=76;Skip=8;")
    assert "The next player draws 2 cards and loses their turn." in out


def test_user_html_template_may_extend_the_bundled_one(tmp_path, capsys):
    tpl = tmp_path / "mine.html.j2"
    tpl.write_text('{% extends "sheet.html.j2" %}', encoding="utf-8")
    assert main(["sheet", "classic", "--template", str(tpl)]) == 0
    assert "<h1>Classic UNO</h1>" in capsys.readouterr().out


# ---- the command line ----------------------------------------------------------------------------

def test_cli_writes_each_format(tmp_path, capsys):
    assert main(["sheet", "classic", "--format", "md"]) == 0
    assert capsys.readouterr().out.startswith("# Classic UNO")
    out = tmp_path / "classic.html"
    assert main(["sheet", "killer", "--with", "nines", "--set", "uno_penalty=4", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "Slap the nines" in text and "draws 4 cards (option uno_penalty)" in text


def test_cli_exit_codes(tmp_path, capsys):
    assert main(["sheet", "no-such-ruleset"]) == 2
    assert main(["sheet", "classic", "--format", "pdf"]) == 2          # pdf needs -o
    assert "-o" in capsys.readouterr().err
    assert main(["sheet", "classic", "--set", "uno_penalty=lots"]) == 1  # a rules diagnostic
    bad = tmp_path / "bad.uno"
    bad.write_text('ruleset bad "Bad" { colurs { red R } }\n', encoding="utf-8")
    assert main(["sheet", str(bad)]) == 1
    assert main(["sheet", str(tmp_path / "missing.uno")]) == 2
    assert main(["sheet", "classic", "--template", str(tmp_path / "missing.j2")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err


def test_pdf_without_weasyprint_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "weasyprint", None)
    assert main(["sheet", "classic", "--format", "pdf", "-o", str(tmp_path / "x.pdf")]) == 2
    assert "pip install unodsl[pdf]" in capsys.readouterr().err


def test_sheet_of_a_rules_file(tmp_path):
    path = tmp_path / "mine.uno"
    path.write_text('ruleset mine "Mine" extends classic {\n'
                    '  about "Classic with a harsher catch."\n'
                    '  set uno_penalty = 6\n'
                    '}\n', encoding="utf-8")
    text = sheet.make_sheet(str(path), fmt="md")
    assert text.startswith("# Mine")
    assert "What’s different from Classic UNO" in text and "uno\\_penalty = 6" in text


# ---- in a real browser ------------------------------------------------------------------------------

needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium is not installed (CI installs it)")


def _chromium(*args, timeout=180):
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run([CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, timeout=timeout)


@needs_chromium
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_chromium_prints_classic_on_two_pages(tmp_path, paper):
    page = tmp_path / "classic.html"
    page.write_text(sheet.make_sheet("classic", paper=paper), encoding="utf-8")
    pdf = tmp_path / "classic.pdf"
    _chromium(f"--print-to-pdf={pdf}", "--no-pdf-header-footer", page.as_uri())
    data = pdf.read_bytes()
    pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
    assert 1 <= pages <= 2, f"{paper}: {pages} pages"


@needs_chromium
def test_phone_width_nothing_wider_than_the_screen(tmp_path):
    """The sheet in a 375-pixel-wide frame: its content must not be wider than the frame."""
    text = sheet.make_sheet("classic")
    frame = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>pending</title></head>'
             '<body style="margin:0"><iframe id="f" style="width:375px;height:2000px;border:0;display:block" '
             f'srcdoc="{htmlmod.escape(text, quote=True)}"></iframe><script>'
             'var f=document.getElementById("f");f.addEventListener("load",function(){'
             'var d=f.contentDocument;document.title="width "+d.documentElement.scrollWidth+" of "'
             '+f.contentWindow.innerWidth;});</script></body></html>')
    page = tmp_path / "phone.html"
    page.write_text(frame, encoding="utf-8")
    run = _chromium("--window-size=500,2000", "--virtual-time-budget=5000", "--dump-dom", page.as_uri())
    found = re.search(rb"<title>width (\d+) of (\d+)</title>", run.stdout)
    assert found, run.stdout[-500:] + run.stderr[-500:]
    width, screen = int(found.group(1)), int(found.group(2))
    assert screen == 375
    assert width <= 375
    # and a screenshot at a phone's width, as a person would look at it
    plain = tmp_path / "sheet.html"
    plain.write_text(text, encoding="utf-8")
    shot = tmp_path / "phone.png"
    _chromium("--window-size=375,2000", "--hide-scrollbars", f"--screenshot={shot}", plain.as_uri())
    assert shot.exists() and shot.stat().st_size > 10_000
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    width_px = int.from_bytes(shot.read_bytes()[16:20], "big")
    assert width_px == 375
