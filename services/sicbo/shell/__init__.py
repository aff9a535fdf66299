"""The thin shell around each pure decider: decode, load state, decide, append, reply."""
