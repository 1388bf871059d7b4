"""What a checkpoint IS, read from metadata only. Nothing here knows about any engine."""
