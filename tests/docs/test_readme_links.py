"""README.md is also the package index's page, where relative links break: its links into the
documentation are absolute, under the site's address (mkdocs.yml's ``site_url``), and each one
names a page that exists."""

from __future__ import annotations

import re
from pathlib import Path

from scripts.mkdocs_hooks import EXTERNAL_FILES

REPO = Path(__file__).resolve().parent.parent.parent


def _site_url() -> str:
    match = re.search(r"^site_url: (\S+)$", (REPO / "mkdocs.yml").read_text(), re.M)
    assert match is not None
    return match.group(1).rstrip("/")


def test_readme_links_are_absolute_and_name_existing_pages() -> None:
    readme = (REPO / "README.md").read_text()
    targets = re.findall(r"\]\(([^)]+)\)", readme)
    assert targets, "the README links the guides"
    relative = [t for t in targets if not t.startswith("https://")]
    assert not relative, f"relative links break on the package index: {relative}"
    docs = f"{_site_url()}/en/latest/"
    pages = [t.removeprefix(docs).strip("/") for t in targets if t.startswith(docs)]
    assert len(pages) >= 10, pages
    generated = {  # the pages scripts/mkdocs_hooks.py adds from files outside docs/
        site_path.removesuffix(".md").removesuffix("/index")
        for site_path in EXTERNAL_FILES
        if site_path.endswith(".md")
    }
    missing = [p for p in pages if p not in generated and not (REPO / "docs" / f"{p}.md").exists()]
    assert not missing, missing


def test_pyproject_urls_use_the_site_url() -> None:
    pyproject = (REPO / "pyproject.toml").read_text()
    assert f'Documentation = "{_site_url()}/"' in pyproject
