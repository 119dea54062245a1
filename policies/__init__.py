"""The policy files shipped with securemem (see README: Policies)."""
