"""servebox: from a checkpoint to a measured, watched LLM service on your own GPUs."""

__version__ = "0.1.0"
