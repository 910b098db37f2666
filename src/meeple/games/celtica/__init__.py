"""Celtica: druids walk one path; players collect amulet parts (rulings C1-C12)."""
