"""Benchmarks and load tests (run with `make bench`; each prints `RESULT name=value unit`)."""
