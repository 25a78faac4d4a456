"""Serving and operations: the server `make run` starts, the `flask` commands, backups and upgrades."""
