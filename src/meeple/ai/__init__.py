"""Bots that play through the game protocol only."""

from meeple.ai.bots import Bot, GreedyBot, RandomBot, bot_names, make_bot
from meeple.ai.ismcts import ISMCTSBot, SearchConfig, bench_ismcts

__all__ = ["Bot", "GreedyBot", "ISMCTSBot", "RandomBot", "SearchConfig", "bench_ismcts", "bot_names", "make_bot"]
