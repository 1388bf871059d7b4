"""`python -m servebox.cli`: the same entry point as the `servebox` script."""

from servebox.cli import main

main()
