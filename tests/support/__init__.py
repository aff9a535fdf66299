"""Builders shared by the unit tests: one table, one clock, one cast of actors.

- :mod:`tests.support.common`: the test table, the time (``NOW``, ``at``), the actors, and
  ``event`` / ``command``, which stamp any contract event or command for the test table.
- :mod:`tests.support.deciders`: given / when / then over a pure decider (:class:`Decider`).
- :mod:`tests.support.lifecycle`, :mod:`tests.support.dice`, :mod:`tests.support.wagers`: each
  aggregate's facts and commands, and ``given`` / ``when`` / ``refused`` for its decider.
- :mod:`tests.support.log`: a table's log numbered like the stream, for settlement.
- :mod:`tests.support.stream`: that log as the stream stores it, settled; a fake event store.
- :mod:`tests.support.floor`: one table's log written round by round, as the services would.
"""
