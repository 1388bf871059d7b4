"""`python -m servebox`: the same command line as the `servebox` script (for a venv whose bin/ is not on PATH)."""

from servebox.cli import main

if __name__ == "__main__":
    main()
