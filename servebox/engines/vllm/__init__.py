"""vLLM: its flags, its memory allocator, its KV-cache report, as servebox models them."""
