"""The running service: engine processes, the watcher, the supervisor and the router."""
