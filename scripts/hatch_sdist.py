"""Hatchling build hook for the sdist: leave out the ``.gitignore`` that hatchling always adds.

The sdist is a source release, not a checkout; ``[tool.hatch.build.targets.sdist]`` in
pyproject.toml lists what it carries, and ``tests/packaging`` checks the listing.
"""

from __future__ import annotations

from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class SdistWithoutVcsFiles(BuildHookInterface):  # type: ignore[type-arg]
    """Drops the VCS ignore files from the sdist's forced inclusions."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Remove ``.gitignore`` / ``.hgignore`` from ``build_data["force_include"]``."""
        forced = build_data["force_include"]
        for source in [s for s, target in forced.items() if target in (".gitignore", ".hgignore")]:
            del forced[source]
