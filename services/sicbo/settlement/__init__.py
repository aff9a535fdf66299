"""Settlement: round settlements, refunds and adjustments (DESIGN.md "The services").

- :mod:`.facts` folds what a settlement is computed from out of the table's log (pure);
- :mod:`.engine` computes the settlement events and the adjustments (pure);
- :mod:`.settler` is the shell: catch up, compute, append once, complete the round;
- :mod:`.service` is the process: a FastStream app on the provisioned ``settlement`` consumer.
"""
