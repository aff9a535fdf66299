"""The demo floor of `make run`: one table per profile, simulated dealers and players."""
