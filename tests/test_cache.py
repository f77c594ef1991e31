"""The cache folder: the bundled files' parses kept between runs are the parses themselves, a
damaged or stale bundle is parsed again, an editor's text never writes one, and a folder that
others may write to is never read."""
from __future__ import annotations

import os

import pytest

from unodsl.compile import loader
from unodsl.lang import parsed_bundle
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
    kept = parsed_bundle.load(sources)
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
    assert parsed_bundle.load([loader.read_source(p, display=f"<bundled>/{p.name}") for p in bundled_files()])


def test_another_text_of_a_bundled_file_names_another_bundle(cache):
    sources = [loader.read_source(p, display=f"<bundled>/{p.name}") for p in bundled_files()]
    parsed_bundle.store(sources, {s.name: ("tree", []) for s in sources})
    changed = [type(s)(s.name, s.text + "\n") if i == 0 else s for i, s in enumerate(sources)]
    assert parsed_bundle.load(changed) is None
    assert parsed_bundle.load(sources) is not None


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
