"""The thin shell every service shares, written once: :mod:`.follower` (the one way to read a
table's log), :mod:`.commands` (decode, load state, decide, append, reply), :mod:`.bootstrap`
(the one app factory), :mod:`.reacting` (what services that react to the log share)."""
