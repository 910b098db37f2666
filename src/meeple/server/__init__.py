"""Online play: `meeple serve`, a game server with tables, seats, live per-seat views and bots.

The server is the only referee. Clients hold no rules and no secrets: each connection receives
its seat's `view(seat)`, its legal actions and the events it may see; nothing else leaves the
server before the game is over. A table is its game record plus metadata, kept in a `Store`.
"""
