"""Units as vLLM prints them: GiB = 2**30 (one definition for every module)."""

GiB = 2**30
MiB = 2**20


def fmt_bytes(nbytes: float) -> str:
    if nbytes >= GiB:
        return f"{nbytes / GiB:.2f} GiB"
    if nbytes >= MiB:
        return f"{nbytes / MiB:.1f} MiB"
    return f"{nbytes:,.0f} B"
