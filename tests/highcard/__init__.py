"""Highcard, a fifth game that lives outside meeple: it plugs in through an entry point of its own
test distribution (conftest.py) and plays everywhere the four games do."""
