"""`python -m meeple` is the `meeple` command."""

from .cli.main import run

run()
