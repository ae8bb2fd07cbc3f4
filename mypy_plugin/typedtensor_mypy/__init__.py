"""typedtensor's mypy plugin: ``plugins = ["typedtensor_mypy"]`` under ``[tool.mypy]``."""
