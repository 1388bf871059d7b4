"""Units as vLLM prints them: GiB = 2**30, with the same rounding its log lines use."""

GiB = 2**30
MiB = 2**20


def gib(nbytes: float) -> float:
    return nbytes / GiB


def fmt_gib(nbytes: float, digits: int = 2) -> str:
    return f"{nbytes / GiB:.{digits}f} GiB"


def fmt_bytes(nbytes: float) -> str:
    if nbytes >= GiB:
        return f"{nbytes / GiB:.2f} GiB"
    if nbytes >= MiB:
        return f"{nbytes / MiB:.1f} MiB"
    return f"{nbytes:,.0f} B"
