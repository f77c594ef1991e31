"""Rule sheets: every bundled ruleset, module and example, in every format, says every rule in
force once, in one voice, with no name of the rules file on the page.

What a sheet must say is computed from the ruleset's composed declarations (`Voice.say` of each,
the same choice the sheet makes), not from a list written here. Golden files pin the Markdown of
classic and killer (UNODSL_UPDATE_GOLDEN=1 rewrites them). Browser tests print the HTML with
Debian's chromium, as people will: they are skipped where /usr/bin/chromium is missing (CI
installs it).
"""
from __future__ import annotations

import html as htmlmod
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest

from unodsl.compile.loader import bundled_names, load
from unodsl.front.cli import main
from unodsl.front.sheet_examples import sheet_examples
from unodsl.lang import ast as A
from unodsl.sheets import sheet
from unodsl.sheets.context import _Book
from unodsl.sheets.rules import load_rules
from unodsl.sheets.voice import Voice

HERE = Path(__file__).parent
ROOT = HERE.parent
GOLDEN = HERE / "golden"
CASES = [(name, kind) for name, kind, _ in bundled_names()]
IDS = [name for name, _ in CASES]
EXAMPLES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples").rglob("*.uno"))
EVERY = IDS + EXAMPLES
RULESETS = [name for name, kind in CASES if kind == "ruleset"]
HAVE_WEASYPRINT = importlib.util.find_spec("weasyprint") is not None
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
APPENDIX_MD = "## The rules exactly"


def make(ref, *args, **kwargs):
    """A sheet as `unodsl sheet` makes it: with its examples of play."""
    with_ = kwargs.get("with_", ())
    return sheet.make_sheet(ref, *args, examples=lambda rules: sheet_examples(ref, rules, with_), **kwargs)


def words(text: str) -> list:
    return re.findall(r"[a-z0-9+]+", text.lower())


def visible(text: str, fmt: str) -> str:
    """The text a reader sees (tags, styles, escapes and link targets removed)."""
    if fmt == "html":
        text = re.sub(r"(?s)<style.*?</style>|<title>.*?</title>", " ", text)
        text = re.sub(r'(?s)<svg[^>]*aria-label="([^"]*)".*?</svg>', r" [picture of \1] ", text)
        text = re.sub(r"<[^>]+>", " ", text)
        text = htmlmod.unescape(text)
    elif fmt == "md":
        text = re.sub(r"\]\(#[^)]*\)", "]", text)
        text = re.sub(r"\\(.)", r"\1", text)
    return text


def parts(text: str, fmt: str) -> tuple[str, str]:
    """(the rule book, the appendix of exact readings) as a reader sees them."""
    if fmt == "html":
        body, _, appendix = text.partition('<details class="exact"')
    elif fmt == "md":
        body, _, appendix = text.partition(APPENDIX_MD)
    else:
        body, appendix = text, ""
    return visible(body, fmt), visible(appendix, fmt if fmt != "pdf" else "md")


def phrase(text: str) -> str:
    return " " + " ".join(words(text)) + " "


def said(rules) -> list:
    """(what, text, exact) for every rule in force, as the sheet's own voice chooses to say it."""
    book = _Book(rules, [])
    v = Voice(rules, book.d)
    out = []
    seen = set()
    for key, decl, unit in rules.composed.items:
        if id(decl) in seen or isinstance(decl, (A.OnRoundEnd, A.Window, A.Match)):
            continue
        seen.add(id(decl))
        if isinstance(decl, A.CounterDecl) and decl.hidden:
            continue                          # bookkeeping the sheets never show
        keys = [k for k, other, _ in rules.composed.items if other is decl]
        one = v.say(decl, keys, unit)
        if one is not None and one.parts and one.parts[0].kind not in ("CardDecl", "Players", "Deal", "Deck", "Colors"):
            out.append((f"{key}", one.text, one.exact))
    return out


def check_says_everything(rules, text: str, fmt: str) -> None:
    body, appendix = parts(text, fmt)
    body_w, appendix_w = " " + " ".join(words(body)) + " ", " " + " ".join(words(appendix)) + " "
    missing = []
    for kind in dict.fromkeys(rules.cards.kind[i] for i in rules.deck):
        title = next((d.title for d in rules.composed.decls(A.CardDecl) if d.name == kind), kind)
        if phrase(title) not in body_w:
            missing.append(("card in the deck", title))
    for what, text_, exact in said(rules):
        if phrase(text_) not in body_w:
            missing.append((what, text_))
        if fmt != "pdf" and phrase(exact) not in appendix_w:
            missing.append((what + " (exact)", exact))
    if rules.about and phrase(rules.about) not in body_w:
        missing.append(("about", rules.about))
    assert not missing, "the sheet leaves out:\n" + "\n".join(f"  {w}: {t}" for w, t in missing)


# ---- the scan: no internal name, nothing said twice, no empty rule ------------------------------

def internal_names(rules) -> set:
    """Names of the rules file that are not words: they must never reach a page."""
    from unodsl.sheets.describe import wordish
    names = set()
    for _, decl, _ in rules.composed.items:
        for node in A.walk(decl):
            for attr in ("var", "name"):
                value = getattr(node, attr, None)
                if isinstance(value, str) and not wordish(value) and not isinstance(node, A.CardDecl):
                    names.add(value)
    for name, info in rules.options.items():
        names.add(name) if not wordish(name) else None
        for choice in info.choices:
            if isinstance(choice, str) and not wordish(choice):
                names.add(choice)
    names |= {n for n in rules.counters if not wordish(n)}
    return {n for n in names if len(n) > 1 or n not in ("a", "I")}


UNO_WORDS = {"color": "colors", "wild": "wilds", "uno": "unos"}


def own_words(rules) -> set:
    """Every word the rules file itself says or names (texts, titles, names, tags, colors, options)."""
    texts = [rules.about, rules.color_word, *rules.color_titles.values()]
    texts += [f"{n} {info.doc}" for n, info in rules.options.items()]
    for _, decl, _ in rules.composed.items:
        for node in A.walk(decl):
            if isinstance(node, (A.Attr, A.Builtin)):
                continue                  # `card.suit` and `suit` are read as the color, whatever their spelling
            for value in vars(node).values() if hasattr(node, "__dict__") else ():
                if isinstance(value, str):
                    texts.append(value)
                elif isinstance(value, tuple):
                    texts += [v for v in value if isinstance(v, str)]
    return set(re.findall(r"[a-z]+", " ".join(texts).replace("_", " ").lower()))


def foreign_words(rules, text: str) -> list:
    """UNO's words (color, wild, UNO) on the sheet of a game whose rules never say them
    (Crazy Eights has suits, eights and no call)."""
    own = own_words(rules)
    return [word for word, plural_ in UNO_WORDS.items() if word not in own and plural_ not in own
            and re.search(rf"(?i)\b({word}|{plural_})\b", text)]


def leaks(rules, text: str, fmt: str) -> list:
    """Everything on the page that a person should not find there."""
    body, appendix = parts(text, fmt)
    found = [f"a word of UNO’s this game does not use: “{w}”" for w in foreign_words(rules, body + appendix)]
    for where, part in (("sheet", body), ("appendix", appendix)):
        for m in re.finditer(r"\b\w*_\w*\b|\{\w*\}|`|\(option\b|\boption [a-z]|\b[a-z]+ = \S", part):
            found.append(f"{where}: identifier-like `{m.group(0)}`")
        for m in re.finditer(r"\bp\d+\b", part):
            found.append(f"{where}: a seat as the program names it `{m.group(0)}`")
        # printed, the section headings are set in capitals ("OUT OF TURN"): their words are no codes
        words_of = re.sub(r"\b[A-Z]{2,}(?:\s+[A-Z]{2,})+\b", " ", part) if fmt == "pdf" else part
        tokens = set(re.findall(r"(?<![’'A-Za-z0-9_\-])[A-Za-z0-9_\-+]+", words_of))
        codes = {c for c in rules.codes if len(c) > 1 and (re.search(r"[0-9+]", c) or c.isupper()) and c != "UNO"}
        if fmt == "pdf":       # headings set in capitals: a code that spells a word of the page ("OF") is that word
            codes = {c for c in codes if c.lower() not in tokens}
        for code in sorted(codes & tokens):
            found.append(f"{where}: a card code `{code}` (cards are named or drawn, not coded)")
        for name in internal_names(rules) & tokens:
            found.append(f"{where}: internal name `{name}`")
        flat = " ".join(part.lower().split())
        for m in re.finditer(r"\b((?:[\w’']+ ){2,}[\w’']+)(?: and| or|,)? \1\b", flat):
            found.append(f"{where}: said twice in a row: “{m.group(0)}”")
    if re.search(r"(?i)nothing happens", body):
        found.append("sheet: an empty rule (“nothing happens”)")
    for m in re.finditer(r"\*\*([^*]+?)[.:]\*\* (.*)", visible(text, "md") if fmt == "md" else ""):
        title, rest = words(m.group(1)), words(m.group(2))
        if len(title) >= 2 and rest[:len(title)] == title:
            found.append(f"sheet: a heading said again as its text: “{m.group(0)[:60]}”")
    if fmt == "pdf":
        return found            # the laid-out text has no pictures: examples differ only by them
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", " ".join(body.split())) if len(s.split()) >= 6]
    seen = set()
    for s_ in sentences:
        key = " ".join(words(s_))
        if key in seen:
            found.append(f"sheet: a sentence said twice: “{s_[:80]}”")
        seen.add(key)
    return found


def sheet_rules(ref):
    return load_rules(ref).rules


@pytest.mark.parametrize("ref", EVERY)
@pytest.mark.parametrize("fmt", ["html", "md"])
def test_scan_every_sheet_and_aid(ref, fmt):
    rules = sheet_rules(ref)
    for aid in (False, True):
        text = make(ref, fmt=fmt, aid=aid)
        problems = leaks(rules, text, fmt)
        assert not problems, f"{ref} {'aid' if aid else 'sheet'} ({fmt}):\n  " + "\n  ".join(problems)


@lru_cache(maxsize=None)
def _printed(ref: str, paper: str, aid: bool) -> tuple[int, str | None]:
    """(pages, the words laid out on them) of the sheet or aid as WeasyPrint prints it, the words
    None where this WeasyPrint does not expose its laid-out pages. Kept for the test process: the
    scan and the page budgets read the same A4 layouts, which are among the slowest work here."""
    from weasyprint import HTML
    document = HTML(string=make(ref, paper=paper, aid=aid)).render()
    if not all(hasattr(page, "_page_box") for page in document.pages):
        return len(document.pages), None
    return len(document.pages), " ".join(_box_text(page._page_box) for page in document.pages)


@pytest.mark.skipif(not HAVE_WEASYPRINT, reason="WeasyPrint is not installed (pip install unodsl[pdf])")
@pytest.mark.parametrize("ref", EVERY)
def test_scan_every_printed_sheet(ref):
    """The PDF as WeasyPrint lays it out: the words that end up on paper."""
    rules = sheet_rules(ref)
    for aid in (False, True):
        _, laid_out = _printed(ref, "a4", aid)
        if laid_out is None:
            pytest.skip("this WeasyPrint does not expose its laid-out pages")
        problems = leaks(rules, laid_out, "pdf")
        assert not problems, f"{ref} printed:\n  " + "\n  ".join(problems)
        if not aid:
            check_says_everything(rules, laid_out, "pdf")


def test_scan_finds_what_it_looks_for():
    """The scan itself: each kind of mistake in a made-up page is found."""
    rules = load("classic")
    page = ("# X\n\n- **Start of each round.** Start of each round: deal.\n"
            "The player draws 2 cards (option uno_penalty). If k is 1, the next player loses their turn and loses their turn. "
            "Nothing happens. The next player draws two cards and loses the turn. The next player draws two cards and loses the turn.\n")
    found = "\n".join(leaks(rules, page, "md"))
    for what in ("uno_penalty", "(option", "said twice in a row", "empty rule", "heading said again",
                 "sentence said twice"):
        assert what in found, what
    eights = sheet_rules("crazy-eights")
    assert foreign_words(eights, "The four colors are Clubs, Diamonds, Hearts and Spades. Say UNO!") == ["color", "uno"]
    assert not foreign_words(eights, "The four suits are Clubs, Diamonds, Hearts and Spades.")


# ---- every ruleset and module, every format ---------------------------------------------------

@pytest.mark.parametrize("ref", EVERY)
@pytest.mark.parametrize("fmt", ["html", "md"])
def test_sheet_says_every_rule_once(ref, fmt):
    rules = sheet_rules(ref)
    text = make(ref, fmt=fmt)
    check_says_everything(rules, text, fmt)
    if fmt == "html":
        assert text.lstrip().startswith("<!DOCTYPE html>")
        assert "<svg" in text
        # self-contained: nothing fetched from elsewhere
        assert not re.search(r"""(?i)(src|href)\s*=\s*["'](?!#)""", text)
        assert "@import" not in text and "url(" not in text
        ids = re.findall(r'\bid="([^"]+)"', text)
        assert len(ids) == len(set(ids)), f"anchors defined twice: {sorted({i for i in ids if ids.count(i) > 1})}"


def _box_text(box) -> str:
    """The text WeasyPrint laid out on a page (what ends up printed)."""
    texts = []
    text = getattr(box, "text", None)
    if isinstance(text, str):
        texts.append(text)
    for child in getattr(box, "children", ()) or ():
        texts.append(_box_text(child))
    return " ".join(texts)


def test_a_switched_off_rule_is_not_said():
    """Classic's teams rule and killer's silent twos are off by default: nothing about them is
    printed as a rule (they are variations); switched on, they are said."""
    off = make("killer", fmt="md")
    body = off.partition(APPENDIX_MD)[0]
    assert "Who made a sound first" not in body and "Teams." not in body
    on = make("killer", fmt="md", options={"silent_twos": "yes", "partners": "yes"})
    assert "Who made a sound first" in on.partition(APPENDIX_MD)[0]
    assert "partners" in on.partition(APPENDIX_MD)[0]


def test_changed_options_replace_the_authors_words_with_the_rule():
    """The author wrote for the defaults; with another value the sheet says the generated rule."""
    plain = make("classic", fmt="md").partition(APPENDIX_MD)[0]
    forced = make("classic", fmt="md", options={"force_play_drawn": "yes", "uno_penalty": "4"})
    body = forced.partition(APPENDIX_MD)[0]
    assert "if it can be played you may play it" in plain
    assert "must play the drawn card" in body and "if it can be played you may play it" not in body
    assert "must play the drawn card" not in plain
    assert "draws 4 cards" in forced.partition(APPENDIX_MD)[2]


# ---- golden files --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["classic", "killer"])
def test_markdown_matches_golden_file(name):
    text = make(name, fmt="md")
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


def _links(text: str) -> dict:
    part = _section(text, "## What’s different")
    return {title: href for title, href in re.findall(r"\[([^\]]+)\]\((#[^)]*)\)", part)}


def test_whats_different_is_a_short_list_of_links_to_the_sections():
    html = make("killer")
    md = make("killer", fmt="md")
    links = _links(md)
    ids = set(re.findall(r'id="([^"]+)"', html))
    assert links and all(href[1:] in ids for href in links.values()), links
    # jump-in's window, the new zero, the changed draw cards, the new count: each named and linked
    for title in ("Jumping in", "Number 0", "Draw Two", "Wild Draw Four", "Drawing", "Pending count"):
        assert title in links, title
    # a link, not a second copy: no rule's words appear in the list
    part = _section(md, "## What’s different")
    assert len(words(part)) < 120
    killer = load("killer")
    for decl in killer.composed.decls(A.OnPlay):
        assert decl.doc not in part


def test_whats_different_names_nothing_classic_already_has():
    links = _links(make("killer", fmt="md"))
    assert "Reverse" not in links and "Wild" not in links
    # Killer's own UNO window opens whenever a passing of hands leaves a player one card: a change
    assert links.get("Saying UNO") == "#out-of-turn-saying-uno"


def test_an_option_a_variant_sets_marks_the_rules_it_changes():
    """Speed sets classic's scoring to a tally: its sheet lists scoring as changed, by name."""
    links = _links(make("speed", fmt="md"))
    assert links.get("Scoring and winning") == "#scoring"


def test_shuffle_hands_takes_away_the_swap_hands_card():
    md = make("shuffle-hands", fmt="md")
    part = _section(md, "## What’s different")
    assert re.search(r"\*\*Gone:\*\* [^\n]*Wild Swap Hands", part)


def test_classic_has_no_whats_different_section():
    for fmt in ("md", "html"):
        text = make("classic", fmt=fmt)
        assert "What’s different" not in text


def test_module_sheet_is_classic_plus_the_module():
    text = make("progressive", fmt="md")
    assert text.startswith("# Classic UNO + Progressive UNO")
    assert "## What’s different from Classic UNO" in text


def test_a_module_needing_other_cards_is_shown_on_a_ruleset_that_has_them():
    rules = sheet_rules("examples/customizable/discard-wilds.uno")
    assert "wild_customizable" in rules.kinds


# ---- examples of play ------------------------------------------------------------------------

def test_examples_of_play_come_from_marked_scenarios_with_cards_drawn():
    html, md = make("classic"), make("classic", fmt="md")
    assert md.count("\n**A Draw Two.**") == 1 and "Challenging a Wild Draw Four" in md
    part = html[html.index('id="examples"'):html.index('id="variations"')]
    assert part.count('class="example"') == 3 and part.count("<svg") > 20
    assert "Ana plays" in md and "p1" not in visible(part, "html")


def _scenario_file(tmp_path, body: str):
    rules = tmp_path / "mine.uno"
    rules.write_text('ruleset mine "Mine" extends classic {\n  about "Classic, my way."\n}\n', encoding="utf-8")
    (tmp_path / "mine.scenarios.yaml").write_text("ruleset: mine.uno\nplayers: 3\nscenarios:\n" + body,
                                                  encoding="utf-8")
    return str(rules)


SKIP_SCENARIO = """  - name: a skip
    sheet: "{caption}"
    {options}
    setup:
      hands: {{p1: [RS, G5], p2: [B1], p3: [Y7]}}
      discard: [R4]
    steps:
      - p1: play RS
    expect: {{turn: {turn}}}
"""


def test_only_passing_scenarios_of_the_same_rules_are_shown(tmp_path, capsys):
    body = (SKIP_SCENARIO.format(caption="A Skip", options="", turn="p3")
            + SKIP_SCENARIO.format(caption="A wrong Skip", options="", turn="p2")
            + SKIP_SCENARIO.format(caption="Another game's Skip", options="options: {uno_penalty: 4}", turn="p3"))
    ref = _scenario_file(tmp_path, body)
    assert main(["sheet", ref, "--format", "md", "-o", str(tmp_path / "out.md")]) == 0
    text = (tmp_path / "out.md").read_text(encoding="utf-8")
    assert "**A Skip.**" in text and "A wrong Skip" not in text and "Another game" not in text
    assert "example left out, it fails" in capsys.readouterr().err


def test_a_scenario_file_with_the_sheet_field_still_runs_as_a_test(tmp_path):
    ref = _scenario_file(tmp_path, SKIP_SCENARIO.format(caption="A Skip", options="", turn="p3"))
    assert main(["test", str(Path(ref).with_name("mine.scenarios.yaml"))]) == 0


# ---- stats, the player aid, paper ------------------------------------------------------------------

def test_stats_are_repeatable_and_print_only_real_figures():
    one = make("classic", fmt="md", stats=3)
    two = make("classic", fmt="md", stats=3)
    assert one == two and "## How long it takes" in one
    assert "3 games played by the computer" in one
    # three games cannot show a first-player advantage: no percentage is printed for it
    assert "Playing first gives no advantage that 3 games can show." in one
    assert "seat advantage" not in one


def test_player_aid_has_every_card_the_turn_and_the_answers():
    text = make("classic", fmt="md", aid=True)
    for title in ("Number", "Skip", "Reverse", "Draw Two", "Wild", "Wild Draw Four"):
        assert f"**{title}**" in text
    assert text.count("\n1. ") == 1 and "\n3. " in text and "\n4. " not in text
    assert "Catch a player with one card" in text and "Challenge" in text


def test_paper_size_reaches_the_print_css():
    assert "size: A4" in make("classic", paper="a4")
    assert "size: Letter" in make("classic", paper="letter")


def _budget(ref, aid):
    return 1 if aid else 2 if ref == "classic" else 3


@pytest.mark.skipif(not HAVE_WEASYPRINT, reason="WeasyPrint is not installed (pip install unodsl[pdf])")
@pytest.mark.parametrize("ref", RULESETS)
def test_weasyprint_page_budgets(ref):
    for paper in ("a4", "letter"):
        for aid in (False, True):
            pages, _ = _printed(ref, paper, aid)
            assert pages <= _budget(ref, aid), f"{ref} {paper} {'aid' if aid else 'sheet'}: {pages} pages"


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
                   "{% for e in cards %}{{ e.text }}\n{% endfor %}", encoding="utf-8")
    assert main(["sheet", "classic", "--template", str(tpl)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Classic UNO: Number=76;Skip=8;")
    assert "The next player draws two cards and loses their turn." in out


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
    assert "Slap the nines" in text and "draws 4 cards" in text and "uno_penalty" not in text


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
    text = make(str(path), fmt="md")
    assert text.startswith("# Mine")
    assert "What’s different from Classic UNO" in text and "[Saying UNO](#out-of-turn-saying-uno)" in text
    assert "draws 6 cards" in text and "uno\\_penalty" not in text


# ---- in a real browser ------------------------------------------------------------------------------

needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium is not installed (CI installs it)")


def _chromium(*args, timeout=180):
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run([CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, timeout=timeout)


@pytest.fixture(scope="module")
def printer():
    """One Chromium for every print of the module's budgets (through Playwright, with the page's
    own paper size, as `chromium --print-to-pdf` prints it: the two gave the same pages, and the
    same paper, for every bundled ruleset's sheet and aid on A4 and Letter); starting Chromium
    for each print took over half of these tests' time."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@needs_chromium
@pytest.mark.parametrize("ref", RULESETS)
def test_chromium_page_budgets(tmp_path, ref, printer):
    """Printed by Chromium on A4 and Letter: classic on two pages, every other ruleset on three,
    the player aid on one."""
    for paper in ("a4", "letter"):
        for aid in (False, True):
            page = tmp_path / f"{paper}-{aid}.html"
            page.write_text(make(ref, paper=paper, aid=aid), encoding="utf-8")
            tab = printer.new_page()
            try:
                tab.goto(page.as_uri())
                pdf = tab.pdf(prefer_css_page_size=True)
            finally:
                tab.close()
            pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
            size = {"a4": b"594.95996 841.91998", "letter": b"612 792"}[paper]
            assert set(re.findall(rb"/MediaBox\s*\[0 0 ([\d. ]+)\]", pdf)) == {size}, f"{ref} {paper}: not on {paper} paper"
            assert 1 <= pages <= _budget(ref, aid), f"{ref} {paper} {'aid' if aid else 'sheet'}: {pages} pages"


@needs_chromium
def test_phone_width_nothing_wider_than_the_screen(tmp_path):
    """The sheet in a 375-pixel-wide frame: its content must not be wider than the frame."""
    text = make("classic")
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


# ---- the English of the rules (the appendix, and the sheet where an author gave no words) -------

ENGLISH = '''ruleset english "English" extends classic {
  option spread = 10
  on play skip { skip next
    skip next }
  on play number 7 {
    player picks target from others
    target picks k from others where k != target
    player swaps hands with k
  }
  on play number 8 { for each s in others { s draws 1 } }
  on play number 9 { chance n from players * 7 - spread to players * 7 + spread
    if n == 7 { player draws 1 } }
  honest wild_draw_four if not (color == red or top.rank == 1) and (player.cards > 2 or color == blue)
}
'''


def test_the_english_of_the_issue_list(tmp_path):
    path = tmp_path / "english.uno"
    path.write_text(ENGLISH, encoding="utf-8")
    exact = make(str(path), fmt="md").partition(APPENDIX_MD)[2]
    assert "The next player loses their next two turns." in exact                        # not said twice
    assert "the target picks a player other than themselves and the player" in exact     # not "another player other than"
    assert "(the k)" not in exact and " k " not in exact and "the chosen player" in exact  # a name that is no word
    assert "Each other player draws 1 card." in exact                                    # not "for each player"
    assert "A random number within 10 of 7 times the number of players is drawn" in exact
    assert "spread" not in exact and "(option" not in exact
    assert "either the player has more than 2 cards or the current color is Blue" in exact   # grouping kept


# ---- two-sided cards and standard decks --------------------------------------------------------

def test_two_sided_cards_are_counted_and_drawn_side_by_side():
    """Flip's contents: a table per side, each counting that side's cards in that side's colors."""
    md = make("flip", fmt="md")
    contents = _section(md, "## Contents")
    light, dark = contents.split("### Dark side")
    assert "### Light side" in light
    assert re.search(r"\| \*\*Number\*\* \| 72 \| 18 per color: two of each 1–9 \|", light)
    assert re.search(r"\| \*\*Number\*\* \| 72 \|", dark)
    assert re.search(r"\| \*\*Skip\*\* \| 8 \| 2 per color \|", light)
    assert "Skip Everyone" in dark and "Skip Everyone" not in light
    assert "Pink, Teal, Orange and Purple" in contents
    html = make("flip", fmt="html")
    row = re.search(r'(?s)<tr id="deck-dark-draw-five">.*?</tr>', html).group(0)
    assert "Pink Draw Five" in row and "Red Draw Five" not in row


def test_the_same_words_on_both_sides_are_said_once():
    """The light and the dark Wild share their author's words: one line with both pictures; the
    two challenges share their Challenge answer: one question, that answer said once."""
    md = make("flip", fmt="md")
    cards = _section(md, "## What each card does")
    assert cards.count("**Wild.**") == 1
    out = _section(md, "## Out of turn")
    assert "### Challenge the Wild Draw Two or Wild Draw Color?" in out
    assert out.count("Say it was a bluff") == 1
    assert "**Accept, after a Wild Draw Two:**" in out and "**Accept, after a Wild Draw Color:**" in out
    appendix = md.partition(APPENDIX_MD)[2]
    assert "**Wild (light side).**" in appendix and "**Wild (dark side).**" in appendix


def test_variations_are_the_options_a_rule_reads():
    """Flip removed classic's Wild Draw Four: the option its challenge read is said of the cards
    that now read it, and the option nothing reads any more is not listed."""
    part = _section(make("flip", fmt="md"), "## Variations")
    assert "A Wild Draw Two or Wild Draw Color played as the last card can be challenged." in part
    assert "Wild Draw Four" not in part
    assert "challenger loses their turn" not in part


def test_a_deck_of_suits_and_named_ranks():
    md = make("crazy-eights", fmt="md")
    assert "13 per suit: one of each Ace, 2–10, Jack, Queen, King" in md
    assert "The four suits are Clubs, Diamonds, Hearts and Spades." in md
    assert "**Eight.** Name the suit that goes on." in md and "Card 8" not in md
    assert "The dealer deals 7 cards each with two players, otherwise 5, one at a time." in md
    assert "The stock is not renewed: once it is gone, a player who cannot play passes." in md
    assert "shuffle the discard pile" not in md
    html = make("crazy-eights", fmt="html")
    assert "A–K♥" in html and "{suit}" not in html
