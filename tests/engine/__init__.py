"""Engines for the tests: generators of tiny checkpoints, the stand-in llama-server, and the shared harness
(tests/engine/harness.py) every test that runs a real engine or a real process uses."""
