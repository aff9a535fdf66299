"""Benchmarks: ``make bench`` prints figures; the figures go into docs/benchmarks.md."""
