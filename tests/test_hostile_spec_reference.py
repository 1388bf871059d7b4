"""docs/spec.md is generated from the spec's own schema (tools/gen_spec_reference.py): it must be
current, cover every key, and every spec error must point at it."""

from __future__ import annotations

from pathlib import Path

from servebox.deploy.spec import Spec
from tests.conftest import load_script

REPO = Path(__file__).resolve().parent.parent


def generator():
    return load_script("tools/gen_spec_reference.py")


def test_docs_spec_md_is_current():
    want = generator().render()
    have = (REPO / "docs" / "spec.md").read_text()
    assert have == want, "docs/spec.md is stale: run .venv/bin/python tools/gen_spec_reference.py"


def test_every_key_is_documented_with_a_why():
    text = (REPO / "docs" / "spec.md").read_text()

    def keys(model, path):
        for name, field in model.model_fields.items():
            yield path, name
            inner = getattr(field.annotation, "model_fields", None)
            if inner is not None:
                yield from keys(field.annotation, f"{path}.{name}")

    for section in ("host", "router", "models"):
        model = Spec.model_fields[section].annotation
        model = getattr(model, "__args__", [model])[0]
        for path, name in keys(model, section):
            block = text.split(f"## {path}\n", 1)[1].split("\n## ", 1)[0]
            row = next((r for r in block.splitlines() if r.startswith(f"| `{name}` |")), None)
            assert row is not None, f"{path}.{name} missing from docs/spec.md"
            assert len(row.rstrip(" |").rsplit("|", 1)[1].strip()) > 10, row


def test_spec_errors_link_the_reference(run_cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[router]\nlisten = "nowhere"\n[[models]]\nname = "m"\ncheckpoint = "/m"\nport = 5000\n')
    r = run_cli("render", bad, "--out", tmp_path / "out")
    assert r.code == 2 and "router.listen" in r.err and "docs/spec.md#router" in r.err
