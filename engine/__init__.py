"""The poker engine: every rule of the table, pure Python (no Django)."""
