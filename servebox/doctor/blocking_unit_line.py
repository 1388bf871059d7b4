"""A unit-file line systemd ignored whose loss changes what the whole service does (learn55f, fresh-527's draw 9 and
fresh-358's draw 10, known miss since learn43g).

An ignored unit line (a non-fatal systemd cause) ranks after the engine's own fault at the same figure
(close_causes.ignored_unit_line, stop 47): most such lines change nothing for the run (UMask=0o022, MemoryMax=120%,
OnFailure= naming a missing unit), and the refusal the user met in the hand run is the one to fix. Two ignored lines
are not like that, because a setting beside them stays in force without the hole the ignored line was meant to open:
- IPAddressAllow= ignored ('Address prefix is invalid, ignoring assignment: 192.168.1.0/24,127.0.0.1', commas or a
  host:port where systemd takes space-separated prefixes) beside IPAddressDeny=any: the unit's cgroup drops every IP
  packet, loopback included, so under the unit no request reaches the engine at all ('Service blocks all IP address
  ranges', systemd-analyze security). A 404 or 400 the hand run met (the filter not applied) is met only after it.
- ReadWritePaths= ignored ('ReadWritePaths= path is not absolute, ignoring: $HF_HOME') beside ProtectSystem=strict:
  the one writable hole in a read-only tree is gone, so the engine's cache and downloads cannot be written.
Such a line is not set after the run's refusal: the pair keeps the figures independent_warnings gives it (two
non-fatal faults, neither confident) but the unit line comes first, the order the corpus's makers labelled these logs
(fresh-358's IPAddressAllow=HOST:PORT, fresh-527's commas; the lead's learn46a ruling names it the exception).
Where no IPAddressDeny=any is shown, or a valid IPAddressAllow= line is, the ignored line keeps its usual rank."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from servebox.doctor.triage import Diagnosis, Triage

DENY_ALL = "unit-ip-deny-all-shown"  # marker: IPAddressDeny=any, or security's 'Service blocks all IP address ranges'
ALLOW_LINE = "unit-ip-allow-line-shown"  # marker: an IPAddressAllow= line of a unit shown with cat
READ_ONLY_ROOT = "read-only-root-shown"  # marker (learn49a): ProtectSystem=strict among its wordings
STRICT = "ProtectSystem=strict"
BLOCKS_ALL = "blocks all IP address ranges"
# systemd 252's config_parse_in_addr_prefixes; older releases' 'Failed to parse IP address prefix'
IGNORED_PREFIX = re.compile(
    r"(?:Address prefix is invalid|Failed to parse IP address prefix)(?:, ignoring assignment)?: (?P<value>.+?)\s*$"
)
IGNORED_WRITABLE = re.compile(r"ReadWritePaths= [^\n]*?ignoring")
ALLOW_VALUE = re.compile(r"IPAddressAllow=(?P<value>.*?)\s*$")


def _ignored_prefixes(d: Diagnosis) -> set[str]:
    """The IP address values the cause's lines say systemd ignored."""
    return {m.group("value") for e in d.evidence if (m := IGNORED_PREFIX.search(e.text))}


def _blocks_every_request(t: Triage, d: Diagnosis) -> bool:
    """An ignored IP address line where the log shows that nothing is allowed through: security's verdict, or
    IPAddressDeny=any with every IPAddressAllow= line shown being one systemd ignored."""
    ignored = _ignored_prefixes(d)
    deny = t.hits.get(DENY_ALL)
    if not ignored or deny is None:
        return False
    if any(BLOCKS_ALL in text for _, text in deny.evidence):
        return True
    allow = t.hits.get(ALLOW_LINE)
    shown = {
        m.group("value") for _, text in (allow.evidence if allow else ()) if (m := ALLOW_VALUE.search(text))
    }
    return shown <= ignored


def _leaves_tree_read_only(t: Triage, d: Diagnosis) -> bool:
    """An ignored ReadWritePaths= beside ProtectSystem=strict: the hole it was to open stays read-only."""
    strict = t.hits.get(READ_ONLY_ROOT)
    if strict is None or not any(STRICT in text for _, text in strict.evidence):
        return False
    return any(IGNORED_WRITABLE.search(e.text) for e in d.evidence)


def blocking_unit_lines(t: Triage, diagnoses: list[Diagnosis]) -> set[int]:
    """Ids of the non-fatal systemd causes whose ignored line leaves the service unable to do its work."""
    return {
        id(d)
        for d in diagnoses
        if d.role == "cause"
        and d.category == "systemd"
        and not d.fatal
        and (_blocks_every_request(t, d) or _leaves_tree_read_only(t, d))
    }
