#!/usr/bin/env python3
"""How fast `unodsl lsp` answers an editor, measured over the real protocol.

A pygls client starts `unodsl lsp` on standard input and output, as an editor does, and times,
in milliseconds from the request to the answer:

  first check      opening classic.uno until its diagnostics arrive (the server's first check)
  hover            hovers on classic after that first check: card kinds, options, keywords, rules
  completion       completions on classic: a declaration's start, a card selector, an expression
  re-check         typing into a 300-line rules file: from a change of one character to the
                   diagnostics of the new text (the server waits DEBOUNCE for more keystrokes
                   first, and that wait is included)
  check in-process the server's own work for the same edits (unodsl.lsp.analysis), as wall time
                   and as CPU time: on a shared machine the CPU time is what a quiet one would
                   show, the protocol figures above include waiting for a core
  unodsl check     the same 300-line file checked by the command line, a new process each time,
                   for comparison (start-up included)

Figures are medians (and the 90th percentile) over the repetitions. The goals: a hover or a
completion on classic under 100 ms after the first check, a re-check of a 300-line file under
200 ms. The edits go to the editor's text only; no file of the project is changed.

usage: python bench/bench_lsp.py [--repeat N]   (needs: pip install 'unodsl[lsp]')
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CLASSIC = ROOT / "rulesets" / "classic.uno"


def big_ruleset(lines: int = 300) -> str:
    """A 300-line rules file: classic under another name, with rules after every play added."""
    text = CLASSIC.read_text(encoding="utf-8").replace("ruleset classic", "ruleset big")
    body, closing = text.rstrip().rsplit("}", 1)
    extra, n = [], 0
    while len((body + "\n".join(extra)).splitlines()) < lines - 2:
        extra += [f'  after play "Rule {n}: a played number {n % 10} makes the next player draw one." {{',
                  f"    if players > {2 + n % 3} and card.kind == number and card.rank == {n % 10} {{",
                  "      next draws 1",
                  "    }",
                  "  }"]
        n += 1
    return body.rstrip() + "\n\n" + "\n".join(extra) + "\n}\n" + closing


def probes(text: str, wanted) -> list[T.Position]:
    """Positions of the given words on the lines that contain the given texts."""
    rows = text.split("\n")
    out = []
    for needle, word in wanted:
        n = next(i for i, row in enumerate(rows) if needle in row)
        out.append(T.Position(n, rows[n].index(word, rows[n].index(needle)) + len(word) // 2))
    return out


HOVERS = [("card skip", "skip"), ("card wild_draw_four", "wild_draw_four"), ("option uno_penalty", "uno_penalty"),
          ("next draws 2", "draws"), ("next draws 2", "2"), ("player draws uno_penalty", "uno_penalty"),
          ("match card is wild", "wild"), ("on play draw_two", "draw_two"), ("winner scores total", "total"),
          ("opens after play", "opens")]
COMPLETIONS = [("on play skip", "on play "), ("next draws 2", "next draws "), ("deal 7", "deal "),
               ("match card.color", "match card."), ("  players 2 to 10", "  ")]


async def timed(coro) -> float:
    start = time.perf_counter()
    await coro
    return (time.perf_counter() - start) * 1000


def summary(name: str, values: list[float]) -> str:
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
    return f"  {name:<16} median {statistics.median(values):7.1f} ms   p90 {p90:7.1f} ms   ({len(values)} times)"


async def main(repeat: int) -> None:
    client = LanguageClient("bench", "1")
    published: asyncio.Queue = asyncio.Queue()

    @client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _diagnostics(params):
        published.put_nowait(params)

    await client.start_io(sys.executable, "-m", "unodsl", "lsp")
    await client.initialize_async(T.InitializeParams(capabilities=T.ClientCapabilities()))
    client.initialized(T.InitializedParams())

    classic_uri = CLASSIC.resolve().as_uri()
    text = CLASSIC.read_text(encoding="utf-8")
    start = time.perf_counter()
    client.text_document_did_open(T.DidOpenTextDocumentParams(
        T.TextDocumentItem(uri=classic_uri, language_id="uno", version=1, text=text)))
    await published.get()
    first = (time.perf_counter() - start) * 1000
    doc = T.TextDocumentIdentifier(uri=classic_uri)

    hovers, completions = [], []
    for _ in range(repeat):
        for pos in probes(text, HOVERS):
            hovers.append(await timed(client.text_document_hover_async(T.HoverParams(text_document=doc, position=pos))))
        for needle, typed in COMPLETIONS:
            (pos,) = probes(text, [(needle, typed)])
            pos = T.Position(pos.line, text.split("\n")[pos.line].index(typed) + len(typed))
            completions.append(await timed(client.text_document_completion_async(
                T.CompletionParams(text_document=doc, position=pos))))

    big = big_ruleset()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.uno"
        path.write_text(big, encoding="utf-8")
        uri = path.resolve().as_uri()
        client.text_document_did_open(T.DidOpenTextDocumentParams(
            T.TextDocumentItem(uri=uri, language_id="uno", version=1, text=big)))
        await published.get()
        rechecks = []
        typed = big
        for version in range(2, 2 + repeat * 3):
            typed = typed.replace('"Rule 1:', f'"Rule {version}1:', 1) if version % 2 else \
                typed.replace(f'"Rule {version - 1}1:', '"Rule 1:', 1)
            start = time.perf_counter()
            client.text_document_did_change(T.DidChangeTextDocumentParams(
                text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[T.TextDocumentContentChangeWholeDocument(text=typed)]))
            while (await published.get()).version != version:
                pass
            rechecks.append((time.perf_counter() - start) * 1000)
        cli = []
        for _ in range(max(3, repeat // 2)):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "unodsl", "check", str(path)], capture_output=True, check=True)
            cli.append((time.perf_counter() - start) * 1000)

    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()

    print(f"unodsl lsp over stdio; classic.uno ({len(text.splitlines())} lines) and a "
          f"{len(big.splitlines())}-line file")
    print(f"  {'first check':<16} {first:7.1f} ms")
    print(summary("hover", hovers))
    print(summary("completion", completions))
    print(summary("re-check", rechecks))
    wall, cpu = in_process(big, repeat * 3)
    print(summary("check in-process", wall))
    print(summary("  (CPU time)", cpu))
    print(summary("unodsl check", cli))


def in_process(text: str, times: int) -> tuple[list[float], list[float]]:
    """The server's re-check without the protocol: Documents.check after each edit."""
    from unodsl.lsp.analysis import Documents
    docs = Documents()
    uri = "file:///bench/big.uno"
    docs.open(uri, text, 1)
    docs.check(uri)
    wall, cpu = [], []
    for n in range(times):
        docs.change(uri, text.replace('"Rule 1:', f'"Rule {n}91:', 1), n + 2)
        w, c = time.perf_counter(), time.process_time()
        docs.check(uri)
        wall.append((time.perf_counter() - w) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return wall, cpu


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=10, help="repetitions of each probe (default 10)")
    asyncio.run(main(parser.parse_args().repeat))
