"""Latency of `typedtensor lsp` as an editor sees it (a real LSP client over stdio).

For a generated 300-line and 2,000-line file of transformer-style functions:

- first open: didOpen -> the first publishDiagnostics, against a cold ``mypy`` run on the same
  file (a fresh cache directory; the same configuration and plugin);
- after an edit: didChange (unsaved) -> publishDiagnostics for that version, median of N edits
  that alternately inject and remove a shape bug in one function;
- inlayHint round trip once the edit is checked, and didChange -> inlayHint answered (the hint
  request waits for the check of the newest text);
- the server's resident memory (VmRSS) after the edits;
- the other route for unsaved buffers, for comparison: mypy's build API with a warm incremental
  cache and ``--shadow-file`` (what a server without the fine-grained engine would run per edit).

    python benchmarks/bench_lsp.py [--edits 15] [--sizes 300,2000]

A benchmark, not a test: timings depend on the machine's load; medians are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

SERVER = [sys.executable, "-m", "typedtensor", "lsp"]
CONFIG = '[tool.mypy]\nplugins = ["typedtensor_mypy"]\n'
HEADER = '''"""Generated for bench_lsp.py: transformer-style blocks."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
T = TypeVar("T")
'''
BLOCK = """

def block_{i}(x: Tensor[tt.float32, B, T, L[16]]) -> Tensor[tt.float32, B, T, L[16]]:
    wqkv = tt.random((16, 48), tt.float32, seed={i})
    wo = tt.random((16, 16), tt.float32, seed={i})
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    normed = (x - mean) / tt.sqrt(var + 1e-5)
    q, k, v = tt.split(normed @ wqkv, 3, axis=-1)
    qh = tt.permute_dims(q.reshape((x.shape[0], x.shape[1], 4, 4)), (0, 2, 1, 3))
    kh = tt.permute_dims(k.reshape((x.shape[0], x.shape[1], 4, 4)), (0, 2, 1, 3))
    vh = tt.permute_dims(v.reshape((x.shape[0], x.shape[1], 4, 4)), (0, 2, 1, 3))
    scores = (qh @ kh.mT) * 0.5
    weights = tt.exp(scores - scores.logsumexp(axis=-1, keepdims=True))
    heads = tt.swapaxes(weights @ vh, 1, 2)
    merged = heads.reshape((x.shape[0], x.shape[1], 16))
    out = x + merged @ wo
    return out
"""
BUG = ("scores = (qh @ kh.mT) * 0.5", "scores = (qh @ kh) * 0.5")


def generate(lines: int) -> str:
    """A file of about ``lines`` lines: the header and as many blocks as fit."""
    text = HEADER
    i = 0
    while text.count("\n") + BLOCK.count("\n") <= lines:
        text += BLOCK.format(i=i)
        i += 1
    return text


def edited(text: str, n: int) -> str:
    """The n-th edit: the shape bug injected into the middle block on odd n, removed on even."""
    if n % 2 == 0:
        return text
    at = text.index(BUG[0], len(text) // 2)
    return text[:at] + BUG[1] + text[at + len(BUG[0]) :]


def cold_mypy(root: Path, name: str) -> float:
    with tempfile.TemporaryDirectory() as cache:
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "mypy", "--cache-dir", cache, name],
            cwd=root,
            capture_output=True,
            check=False,
        )
        return time.perf_counter() - t0


def build_api_route(root: Path, name: str, text: str, edits: int) -> float:
    """Median s of mypy's build API re-checking an edited shadow copy with a warm cache."""
    code = f"""
import os, statistics, sys, time
from mypy import build
from mypy.main import process_options
os.chdir({str(root)!r})
text = open({name!r}).read()
times = []
for n in range({edits} + 1):
    shadow = "shadow_" + {name!r}
    with open(shadow, "w") as fh:
        fh.write(text + "\\n" * (n % 2))
    t0 = time.perf_counter()
    sources, options = process_options(["--shadow-file", {name!r}, shadow, {name!r}])
    options.export_types = True
    build.build(sources, options)
    if n:
        times.append(time.perf_counter() - t0)
print(statistics.median(times))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return float(done.stdout.strip().splitlines()[-1])


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def measure(root: Path, name: str, text: str, edits: int) -> dict[str, float]:
    client = LanguageClient("bench-lsp", "1")
    published: list[tuple[float, lsp.PublishDiagnosticsParams]] = []

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        published.append((time.perf_counter(), params))

    @client.feature(lsp.WINDOW_LOG_MESSAGE)
    def on_log(params: lsp.LogMessageParams) -> None:  # the server logs each check's time
        pass

    await client.start_io(*SERVER, cwd=str(root))
    await client.initialize_async(
        lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), root_uri=root.as_uri())
    )
    client.initialized(lsp.InitializedParams())
    uri = (root / name).as_uri()

    async def diagnostics_of(version: int) -> float:
        while True:
            for t, params in published:
                if params.uri == uri and params.version == version:
                    return t
            await asyncio.sleep(0.002)

    async def hints() -> list[lsp.InlayHint]:
        found = await client.text_document_inlay_hint_async(
            lsp.InlayHintParams(
                text_document=lsp.TextDocumentIdentifier(uri=uri),
                range=lsp.Range(lsp.Position(0, 0), lsp.Position(text.count("\n") + 1, 0)),
            )
        )
        return list(found or [])

    t0 = time.perf_counter()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "python", 1, text))
    )
    first_open = await diagnostics_of(1) - t0
    n_hints = len(await hints())
    to_diagnostics, round_trip, to_hints = [], [], []
    for n in range(1, edits + 1):
        version = n + 1
        t0 = time.perf_counter()
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
                [lsp.TextDocumentContentChangeWholeDocument(text=edited(text, n))],
            )
        )
        if n % 3 == 0:  # every third edit: ask for hints at once, as an editor does
            await hints()
            to_hints.append(time.perf_counter() - t0)
        to_diagnostics.append(await diagnostics_of(version) - t0)
        t1 = time.perf_counter()
        await hints()
        round_trip.append(time.perf_counter() - t1)
    assert client._server is not None
    rss = rss_mib(client._server.pid)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return {
        "first_open": first_open,
        "edit_to_diagnostics": statistics.median(to_diagnostics),
        "edit_to_diagnostics_max": max(to_diagnostics),
        "hint_round_trip": statistics.median(round_trip),
        "edit_to_hints": statistics.median(to_hints) if to_hints else float("nan"),
        "rss_mib": rss,
        "hints": n_hints,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=15)
    parser.add_argument("--sizes", default="300,2000")
    parser.add_argument("--no-build-api", action="store_true", help="skip the build-API route")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()}")
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "pyproject.toml").write_text(CONFIG)
            name = f"model_{size}.py"
            text = generate(size)
            (root / name).write_text(text)
            cold = cold_mypy(root, name)
            found = asyncio.run(measure(root, name, text, args.edits))
            build_api = float("nan") if args.no_build_api else build_api_route(root, name, text, 5)
            rows.append((text.count("\n"), cold, found, build_api))
    print(
        "\n| file | cold mypy | first open | edit -> diagnostics (median / max) "
        "| inlayHint round trip | edit -> hints | server RSS | build API + shadow, warm cache |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for n_lines, cold, f, build_api in rows:
        print(
            f"| {n_lines} lines, {f['hints']:.0f} hints | {cold:.2f} s | {f['first_open']:.2f} s "
            f"| {f['edit_to_diagnostics']:.3f} / {f['edit_to_diagnostics_max']:.3f} s "
            f"| {f['hint_round_trip'] * 1000:.0f} ms | {f['edit_to_hints']:.3f} s "
            f"| {f['rss_mib']:.0f} MiB | {build_api:.2f} s |"
        )
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
