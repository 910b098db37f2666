"""The `meeple` command: the only layer that talks to people."""
