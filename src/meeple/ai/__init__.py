"""Bots that play through the game protocol only."""

from .bots import Bot, GreedyBot, RandomBot, bot_names, make_bot

__all__ = ["Bot", "GreedyBot", "RandomBot", "bot_names", "make_bot"]
