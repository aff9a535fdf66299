"""Replay: recompute a round's settlement from the log alone and compare it with the record,
and check the log's own invariants.

- :mod:`.history` folds stored messages per table (facts and settlements);
- :mod:`.audit` compares one round's recorded settlement with a fresh recomputation;
- :mod:`.adjustments` checks a round's adjustments and void, for the audit;
- :mod:`.invariants` checks the log's invariants over each table's events (with :mod:`.ledger`
  for the money's, :mod:`.owners` for what each event is, :mod:`.findings` for what is found);
- :mod:`.report` builds the dispute report of one round (history and wager-by-wager rows);
- :mod:`.verify` re-settles every settled round of a log and checks its invariants.

All pure: the ``sicbo replay`` commands read the log and hand it to these functions.
"""
