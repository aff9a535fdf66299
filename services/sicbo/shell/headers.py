"""Headers the floor puts on its messages."""

COMMAND_ID = "Sicbo-Command-Id"  # the command an event was decided from: duplicate detection
