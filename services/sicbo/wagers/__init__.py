"""Wager intake: bet slips placed, withdrawn, changed and carried over void rounds, and colour
checks issued and redeemed (000 §3-§4, §7.5; 002 art. 3(3)(4); 004). The pure decider is in
:mod:`sicbo.wagers.decider`, the service in :mod:`sicbo.wagers.service`."""
