"""MkDocs hooks: pages and images that live outside ``docs/`` join the site at build time.

``CHANGELOG.md`` (the repository's, read by the package index too) becomes ``changelog.md``,
``benchmarks/README.md`` the page ``benchmarks/index.md``, and the benchmark plots are served
at ``benchmarks/<name>.png``: the site shows the files the benchmarks wrote, not copies that
could go stale.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

REPO = Path(__file__).resolve().parent.parent
# site path -> file in the repository
EXTERNAL_FILES = {
    "changelog.md": REPO / "CHANGELOG.md",
    "benchmarks/index.md": REPO / "benchmarks" / "README.md",
    "benchmarks/reductions.png": REPO / "benchmarks" / "reductions.png",
    "benchmarks/sizes.png": REPO / "benchmarks" / "sizes.png",
}


def on_files(files: Files, config: Any, **kwargs: Any) -> Files:
    """Add :data:`EXTERNAL_FILES` to the site's files (mkdocs' ``on_files`` event)."""
    for site_path, source in EXTERNAL_FILES.items():
        files.append(File.generated(config, site_path, abs_src_path=str(source)))
    return files
