"""Measurements through the client path: throughput and latency (bench), answer quality (eval)."""
