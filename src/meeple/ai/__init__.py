"""Bots that play through the game protocol only."""

from .bots import Bot, GreedyBot, RandomBot, bot_names, make_bot
from .ismcts import ISMCTSBot, SearchConfig, bench_ismcts

__all__ = ["Bot", "GreedyBot", "ISMCTSBot", "RandomBot", "SearchConfig", "bench_ismcts", "bot_names", "make_bot"]
