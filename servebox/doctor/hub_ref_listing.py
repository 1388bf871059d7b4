"""An offline hub lookup that found no snapshot for a repo the log's own cache listing shows cached: the ref is broken.

learn50b (fresh-452's fresh452-vllm-02-hub-cache-refs-main-trailing-newline, read as hub-offline 0.60): offline,
huggingface_hub 2.4's snapshot_download (_snapshot_download.py) reads refs/<revision> with `f.read()`, unstripped,
and returns snapshots/<that text>/ only where that folder exists; else it raises LocalEntryNotFoundError 'Cannot find
an appropriate cached snapshot folder for the specified revision ...', the same words as for a repo never cached where
the process looks (hub-offline's hint, which names both and cannot tell them apart). A paste that also lists the cache
(find, ls -d, tree -f: one full path a line) can: where the listing shows the repo the engine asked for, its
refs/<revision> and a snapshot folder holding files, under the cache this process reads (HF_HUB_CACHE's folder where
the log sets it, --download-dir's where given, else HF_HOME's or the default's hub/), the repo IS cached and the ref
names none of the listed snapshots: another commit, the commit with a newline or a space after it (an editor's final
newline, `echo HASH > refs/main`), a cut hash. Then hub-cache-ref-broken answers; without such a listing (fresh-205's
ref naming another commit, the log showing no cache) hub-offline's hint stays the reading.
"""

from __future__ import annotations

import posixpath

from servebox.doctor.results import Diagnosis, Evidence
from servebox.doctor.texts import answer_text

OFFLINE = "hub-offline"
REFS, SNAPSHOTS, ASKED, CACHE = (
    "hub-cache-ref-listed",
    "hub-cache-snapshot-listed",
    "hub-repo-asked",
    "hub-cache-asked",
)
NO_SNAPSHOT = "Cannot find an appropriate cached snapshot folder"
BROKEN = "hub-cache-ref-broken"
CAUSE = answer_text("hub_ref_listing", "cause")
FIX = answer_text("hub_ref_listing", "fix")
SURE = 0.75


def _read(t, entry: str) -> list[tuple[int, str, dict[str, str]]]:
    """Each evidence line of an entry with the named groups its wordings find on it."""
    hit = t.hits.get(entry)
    sig = t.signature(entry)
    if hit is None or sig is None:
        return []
    out = []
    for n, text in hit.evidence:
        groups = {k: v for p in sig.patterns if (m := p.search(text)) for k, v in m.groupdict().items() if v}
        out.append((n, text, groups))
    return out


def _asked(t) -> tuple[str, str, str]:
    """(the repo as models--ORG--NAME, the revision, the cache folder's name the listing must show it under)."""
    repo = next((g["repo"] for _, _, g in _read(t, ASKED) if "repo" in g), "")
    shown = {k: v for _, _, g in _read(t, CACHE) for k, v in g.items()}
    folder = shown.get("download_dir") or shown.get("hub_cache") or "hub"
    name = posixpath.basename(folder.rstrip("/")) or folder
    return ("models--" + repo.replace("/", "--")) if repo else "", shown.get("revision", "main"), name


def _listed(groups: dict[str, str], repo: str, name: str) -> bool:
    """The listing's line is of the asked repo, under the cache the process reads (the parent folder's last path part;
    a listing made from inside that folder shows no parent)."""
    cache = groups.get("cache", "")
    under = posixpath.basename(cache.rstrip("/")) == name or cache in ("", ".")
    return under and "models--" + groups.get("repo", "") == repo


def ref_names_no_listed_snapshot(t, diagnoses: list[Diagnosis]) -> Diagnosis | None:
    """hub-cache-ref-broken, in place of hub-offline's hint, where the offline lookup found no snapshot for a repo the
    log's cache listing shows with the asked ref and a snapshot holding files; None otherwise."""
    offline = next(
        (d for d in diagnoses if d.id == OFFLINE and any(NO_SNAPSHOT in e.text for e in d.evidence)), None
    )
    repo, ref, name = _asked(t)
    if offline is None or not repo:
        return None
    refs = [x for x in _read(t, REFS) if _listed(x[2], repo, name) and x[2].get("ref") == ref]
    snaps = [x for x in _read(t, SNAPSHOTS) if _listed(x[2], repo, name)]
    if not refs or not snaps:
        return None
    (ref_at, ref_text, ref_g), (snap_at, snap_text, snap_g) = refs[0], snaps[0]
    repo_dir = posixpath.join(ref_g.get("cache", ""), repo)
    commit = snap_g["commit"]
    fields = dict(repo=repo.removeprefix("models--").replace("--", "/", 1), ref=ref, commit=commit)
    diagnoses.remove(offline)
    return Diagnosis(
        id=BROKEN,
        category="data",
        role="cause",
        cause=CAUSE.format(**fields, ref_at=ref_at, snap_at=snap_at),
        fix=FIX.format(**fields, repo_dir=repo_dir),
        confidence=SURE,
        occurrences=1,
        first_line=offline.first_line,
        evidence=[
            *offline.evidence[:1],
            Evidence(line=ref_at, text=ref_text),
            Evidence(line=snap_at, text=snap_text),
        ],
        fatal=offline.fatal,
    )
