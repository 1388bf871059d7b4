"""Diagnosis: name the root cause from a log (triage.py, signatures.toml) or the machine (probes.py)."""
