"""The cache folder: the parses kept between runs (of the bundled files, and of a file read from
disk) are the parses themselves, a damaged or stale one is parsed again, an editor's text never
writes one, only the latest files are kept, and a folder that others may write to is never read."""
from __future__ import annotations

import os

import pytest

from unodsl.compile import loader
from unodsl.lang import kept_parses
from unodsl.lang.cache import cache_dir
from unodsl.lang.diagnostics import Diagnostics
from unodsl.lang.parser import parse
from unodsl.lang.resources import bundled_files


@pytest.fixture
def cache(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("UNODSL_CACHE", str(root))
    monkeypatch.setattr(loader, "_PARSE_CACHE", type(loader._PARSE_CACHE)())
    return root


def _bundles(root):
    return sorted((root / "parsed").glob("bundled-*.pickle"))


def test_a_load_keeps_the_bundled_parses_and_the_next_reads_them_instead_of_parsing(cache, monkeypatch):
    loader.load("classic")
    assert len(_bundles(cache)) == 1
    monkeypatch.setattr(loader, "_PARSE_CACHE", type(loader._PARSE_CACHE)())

    def no_parsing(*args, **kwargs):
        raise AssertionError("a bundled file was parsed although its parse was kept")
    monkeypatch.setattr(loader, "parse", no_parsing)
    rules = loader.load("killer", with_=["jump-in"])
    assert rules.name == "killer"


def test_the_kept_parses_are_the_files_parses(cache):
    loader.load("classic")
    sources = [loader.read_source(p, display=f"<bundled>/{p.name}") for p in bundled_files()]
    kept = kept_parses.load(sources)
    assert kept is not None and set(kept) == {s.name for s in sources}
    for source in sources:
        diags = Diagnostics()
        tree = parse(source, diags)
        assert kept[source.name] == (tree, diags.items)


def test_a_damaged_bundle_is_parsed_again_and_written_anew(cache, monkeypatch):
    loader.load("classic")
    [bundle] = _bundles(cache)
    bundle.write_bytes(b"not a pickle")
    monkeypatch.setattr(loader, "_PARSE_CACHE", type(loader._PARSE_CACHE)())
    assert loader.load("classic").name == "classic"
    assert kept_parses.load([loader.read_source(p, display=f"<bundled>/{p.name}") for p in bundled_files()])


def test_another_text_of_a_bundled_file_names_another_bundle(cache):
    sources = [loader.read_source(p, display=f"<bundled>/{p.name}") for p in bundled_files()]
    kept_parses.store(sources, {s.name: ("tree", []) for s in sources})
    changed = [type(s)(s.name, s.text + "\n") if i == 0 else s for i, s in enumerate(sources)]
    assert kept_parses.load(changed) is None
    assert kept_parses.load(sources) is not None


def test_an_editors_text_of_a_bundled_file_writes_no_bundle(cache):
    path = bundled_files()[0]
    lib = loader.Library(Diagnostics())
    lib.add_bundled(texts={str(path): path.read_text(encoding="utf-8") + "\n// being edited\n"})
    assert _bundles(cache) == []


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="owners and permission bits")
def test_a_folder_others_may_write_to_is_not_used(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("UNODSL_CACHE", str(shared))
    monkeypatch.setattr(loader, "_PARSE_CACHE", type(loader._PARSE_CACHE)())
    assert cache_dir("parsed") is None
    assert loader.load("classic").name == "classic"          # works, from scratch
    assert list(shared.iterdir()) == []


def _files(root):
    return sorted((root / "parsed").glob("file-*.pickle"))


def _draft(folder, name="draft", text="  Wild cards may be played on anything."):
    path = folder / f"{name}.uno"
    path.write_text(f'ruleset {name} "A draft" extends classic {{\n  about "{text}"\n}}\n', encoding="utf-8")
    return path


def _forget_this_process(monkeypatch):
    monkeypatch.setattr(loader, "_PARSE_CACHE", type(loader._PARSE_CACHE)())


def test_a_file_read_from_disk_is_parsed_once_and_read_back_by_the_next_run(cache, tmp_path, monkeypatch):
    path = _draft(tmp_path)
    first = loader.load(str(path))
    assert len(_files(cache)) == 1
    _forget_this_process(monkeypatch)

    def no_parsing(*args, **kwargs):
        raise AssertionError("a file was parsed although its parse was kept")
    monkeypatch.setattr(loader, "parse", no_parsing)
    again = loader.load(str(path))
    assert again.name == first.name == "draft"
    assert again.fingerprint() == first.fingerprint()


def test_a_changed_file_is_parsed_again_and_its_errors_are_its_own(cache, tmp_path, monkeypatch):
    path = _draft(tmp_path)
    loader.load(str(path))
    _forget_this_process(monkeypatch)
    path.write_text("ruleset draft \"A draft\" extends classic {\n  about\n}\n", encoding="utf-8")
    diagnostics, _ = loader.check(str(path))
    assert [d.span.line for d in diagnostics if d.severity == "error"] == [1, 3]
    _forget_this_process(monkeypatch)
    assert loader.check(str(path))[0] == diagnostics          # read back with the same errors
    assert len(_files(cache)) == 2


def test_the_kept_file_is_the_files_parse(cache, tmp_path):
    path = _draft(tmp_path)
    loader.load(str(path))
    source = loader.read_source(path)
    kept = kept_parses.load([source], "file")
    diags = Diagnostics()
    assert kept == {source.name: (parse(source, diags), diags.items)}


def test_only_the_files_read_last_are_kept(cache, tmp_path, monkeypatch):
    monkeypatch.setitem(kept_parses.KEPT, "file", 3)
    sources = [loader.read_source(_draft(tmp_path, f"draft{i}")) for i in range(4)]
    for source in sources[:3]:
        loader.load(source.name)
    for source, used in zip(sources, (300, 100, 200)):
        os.utime(kept_parses._path([source], "file"), (used, used))
    _forget_this_process(monkeypatch)
    loader.load(sources[1].name)                      # read back: now the most recent of the three
    loader.load(sources[3].name)                      # a fourth: the least recently used goes
    assert len(_files(cache)) == 3
    assert [kept_parses._path([s], "file").is_file() for s in sources] == [True, True, False, True]


def test_an_editors_text_of_a_file_writes_nothing(cache, tmp_path):
    path = _draft(tmp_path)
    loader.check(str(path), files={str(path): path.read_text(encoding="utf-8")})
    loader.analyze(loader.read_source(path))
    assert _files(cache) == []


def test_a_tree_too_deep_to_keep_is_parsed_each_run_and_still_checks(cache, tmp_path, monkeypatch):
    path = _draft(tmp_path)

    def too_deep(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")
    monkeypatch.setattr(kept_parses.pickle, "dumps", too_deep)
    assert loader.check(str(path))[0] == []
    assert _files(cache) == []


def test_a_long_sum_that_parses_checks_as_it_did_before_parses_were_kept(tmp_path):
    """400 terms parse and compile within Python's recursion limit, but pickling their tree
    does not: `unodsl check` says ok, run after run, as it did before it kept parses."""
    import subprocess
    import sys
    path = tmp_path / "sum.uno"
    total = " + ".join(["1"] * 400)
    path.write_text(f'ruleset sum "A long sum" extends classic {{\n  on play number 5 "The next player may draw."'
                    f' {{ if player.cards > {total} {{ next draws 1 }} }}\n}}\n', encoding="utf-8")
    env = {**os.environ, "UNODSL_CACHE": str(tmp_path / "cache")}
    for _ in range(2):
        run = subprocess.run([sys.executable, "-m", "unodsl", "check", str(path)], capture_output=True, text=True,
                             env=env, timeout=60)
        assert (run.returncode, run.stdout.strip()) == (0, f"{path}: ok"), run.stdout + run.stderr
