"""Settlement: round settlements, refunds and adjustments (DESIGN.md "The services").

- :mod:`.facts` folds what a settlement is computed from out of the table's log (pure);
- :mod:`.engine` computes a round's settlement (pure);
- :mod:`.compensation` computes the adjustments and voids of a settled round (pure);
- :mod:`.decider` folds settlement's state and says what is due for a round (pure);
- :mod:`.settler` carries out what is due: append once, complete the round;
- :mod:`.service` is the process: a FastStream app on the provisioned ``settlement`` consumer.
"""
