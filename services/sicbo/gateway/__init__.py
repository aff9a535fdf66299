"""The web gateway: the floor's screens in a browser, speaking to the floor only through NATS."""
