"""A package a checkpoint's own code imports, missing, where transformers' check did not see it (learn50e).

transformers' dynamic_module_utils.check_imports reads a remote-code file's imports before running it and raises
'This modeling file requires the following packages that were not found in your environment: ...'
(remote-code-packages-missing). It skips imports it judges optional: inside try/except ImportError, and (5.x) under
an `is_*_available()` check. When such an import runs anyway (the availability check passed, or a second import the
check did not read), Python's own "No module named 'X'" is raised from the checkpoint's file itself, under
transformers_modules/: the same cause, only python-module-missing's wording. So the exception's innermost frame
decides: a module missing, imported by the model's own file (not a package that file imported, whose own dependency
it would be), is the checkpoint's requirement. Not its own sibling files (transformers_modules.REPO.x: a file
missing from the checkpoint) and not vLLM's tree (moved modules, other families).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from servebox.doctor.triage import Hits

if TYPE_CHECKING:
    from servebox.doctor.results import RaisedException
    from servebox.doctor.triage import Triage

REMOTE = "remote-code-packages-missing"
MODEL_CODE = "/transformers_modules/"  # where transformers copies a checkpoint's .py files to import them
MISSING = re.compile(r"No module named '(?P<module>(?!vllm\b|transformers_modules\b)[\w.]+)'")


def read_remote_imports(t: Triage, raised: list[RaisedException]) -> None:
    """The first 'No module named' raised by a checkpoint's own file becomes remote-code-packages-missing's hit
    (its entry supersedes python-module-missing, which reads the same line)."""
    if REMOTE in t.hits:
        return
    for e in raised:
        m = MISSING.search(e.message)
        if m is None or MODEL_CODE not in e.raised_in.replace("\\", "/"):
            continue
        text = f"{e.type}: {e.message}"[:400]
        groups = {"packages": m["module"].split(".", 1)[0]}
        t.hits[REMOTE] = Hits(
            count=1, first_line=e.line, last_line=e.line, groups=groups, evidence=[(e.line, text)]
        )
        return
