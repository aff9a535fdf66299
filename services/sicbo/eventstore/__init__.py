"""Event store adapter on NATS JetStream: the floor's system of record (:mod:`.store`)."""
