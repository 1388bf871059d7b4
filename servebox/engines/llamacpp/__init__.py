"""llama.cpp (llama-server): its flags, where it puts layers and tensors, the buffers it allocates, --fit."""
