"""The two kinds of failure a verb reports: bad input (exit 2) and a firm 'no' (exit 1).

Bad input always names the file and the field, so the CLI can print one line and nothing else.
"""

from __future__ import annotations

import re

# What remains of control characters once whitespace is collapsed: a hostile file's bytes must not
# reach the terminal as escape sequences.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class InputError(Exception):
    """The user's input (a file, a flag, a repo) is wrong or unreadable: exit code 2."""

    exit_code = 2

    def __init__(self, source: str, field: str | None, message: str):
        self.source = str(source)
        self.field = field
        self.message = message
        super().__init__(self.one_line())

    def one_line(self) -> str:
        where = self.source if not self.field else f"{self.source}: {self.field}"
        line = " ".join(f"{where}: {self.message}".split())  # one line, whatever the message held
        return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", line)


class MachineError(InputError):
    """The machine refused what a verb needed (no space left, permission denied on a path servebox writes): not
    the user's input, a firm 'no' (exit 1), reported in one line naming the path, without a traceback."""

    exit_code = 1

    @classmethod
    def from_os(cls, exc: OSError, doing: str) -> MachineError:
        where = exc.filename2 or exc.filename or "servebox"  # a copy's destination: the side that was written
        source = f", copying {exc.filename}" if exc.filename2 else ""
        return cls(str(where), None, f"{exc.strerror or exc} (errno {exc.errno}){source} while {doing}")


class UnknownArchitectureError(InputError):
    """An architecture or layer kind servebox has no model for: it fails closed, never guesses dense."""
