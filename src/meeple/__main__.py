"""`python -m meeple` is the `meeple` command."""

from meeple.cli.main import run

run()
