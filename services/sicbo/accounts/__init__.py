"""Player accounts: the cashier's commands and the game's entries, as a pure decider."""
