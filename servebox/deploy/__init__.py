"""Deploy artifacts: the spec, systemd units, the router's config, provisioned engine venvs."""
