"""Research APIs over the game protocol: PettingZoo, Gymnasium, OpenSpiel (meeple[envs])."""
