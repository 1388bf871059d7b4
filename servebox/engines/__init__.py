"""What an engine DOES with checkpoint facts. Engine facts per version live in data files."""
