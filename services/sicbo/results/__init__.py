"""The public results feed for integration partners (``sicbo.results.<table>``).

- :mod:`.project` turns one stored outcome into its public message (pure);
- :mod:`.feed` is the shell: project each table's stored outcomes once, in log order;
- :mod:`.service` is the process: a FastStream app on the provisioned ``results-feed`` consumer;
- :mod:`.reader` reads the feed back (``sicbo results tail``);
- :mod:`.partners` is the partners' own copy of the feed (deploy/nats/README.md).
"""
