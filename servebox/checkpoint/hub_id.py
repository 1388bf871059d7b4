"""The hub's repo-id grammar, in a module of its own so the spec can check a checkpoint id without
importing huggingface_hub."""

from __future__ import annotations

import re

# org/name[@revision]: letters, digits, - _ . (at most 96 characters a part), as the hub allows.
HUB_REPO_RE = re.compile(r"^(?P<repo>[A-Za-z0-9][\w.\-]{0,95}/[\w.\-]{1,96})(?:@(?P<revision>[\w.\-/]+))?$")
