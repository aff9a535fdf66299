"""Headers the floor puts on its messages."""

COMMAND_ID = "Sicbo-Command-Id"  # the command an event was decided from: duplicate detection
#: The service that decided it: command ids are unique per service and table, not floor-wide.
COMMAND_SERVICE = "Sicbo-Service"
#: A digest of the command's content: a retry is the same command; a reused id with other
#: content is refused, never answered "duplicate".
COMMAND_DIGEST = "Sicbo-Command-Digest"
