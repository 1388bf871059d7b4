"""The model folders a GPU batch's cases name, written from the published config.json fixtures: one writer for every
tools/gpu_freshNNN_draw.py (each drew its cases' models as {folder: {"fixture", "edit"}} in its cases file).
An edit's key may be dotted ("quantization_config.bits") to change a field inside a nested object."""

from __future__ import annotations

import json
import os
import shutil


def write_models(models: dict, root: str, fixtures: str) -> None:
    """Write ROOT/<folder>/config.json for each folder: the fixture's config byte for byte where nothing is edited,
    else the fixture's config with each edited field set."""
    for name, m in models.items():
        os.makedirs(os.path.join(root, name), exist_ok=True)
        src, dst = (
            os.path.join(fixtures, m["fixture"], "config.json"),
            os.path.join(root, name, "config.json"),
        )
        if not m["edit"]:
            shutil.copyfile(src, dst)
            print("copied", dst, "from", m["fixture"])
            continue
        with open(src) as f:
            cfg = json.load(f)
        for field, value in m["edit"].items():
            *path, last = field.split(".")
            node = cfg
            for key in path:
                node = node[key]
            node[last] = value
        with open(dst, "w") as f:
            json.dump(cfg, f, indent=2)
            f.write("\n")
        print("wrote", dst, "from", m["fixture"], json.dumps(m["edit"])[:120])
