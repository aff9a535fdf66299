"""Dice capture: the entry terminal's result, confirmed, held, resolved or corrected
(000 §2.6, §5.3-5.4; GLI-19 §4.18.4). The pure decider is :mod:`sicbo.dice.decider`, its
state and evolve :mod:`sicbo.dice.state`, the checks it shares :mod:`sicbo.dice.guards`."""
