"""Round lifecycle: table and round phases, limits, seats, paytables, faults (000 §4-§8,
002 arts. 2-4, 002/2004 art. 8, 004). The pure decider is :mod:`sicbo.lifecycle.decider` (with
:mod:`.rounds`, :mod:`.table` and :mod:`.guards`); its state is :mod:`.state`, how each event
changes it :mod:`.evolve`, the paytables in force :mod:`.paytables`; the betting countdown
is :mod:`.countdown`."""
