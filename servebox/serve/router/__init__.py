"""The router package: app.py assembles it (build_app), the other modules hold one concern each."""

from servebox.serve.router.app import build_app, parse_listen

__all__ = ["build_app", "parse_listen"]
