"""The statistics board (004) and game recall (AGCO 13.1): read models per table.

- :mod:`.stats` folds one round's lifecycle events into a :class:`~.stats.RoundLine` and the
  lines into a :class:`~sicbo_contracts.board.StatsBoard` (pure);
- :mod:`.recall` folds one round's whole history into a
  :class:`~sicbo_contracts.board.RecallRound` (pure);
- :mod:`.readmodel` holds a table's recent rounds as stored and answers both (pure);
- :mod:`.queries` keeps one read model per table caught up from the log (I/O);
- :mod:`.service` is the service process.
"""
