"""The commands' logic, shared by the Discord cogs, the console and the CLI (no discord here)."""
from .reply import Choice, Reply

__all__ = ["Choice", "Reply"]
