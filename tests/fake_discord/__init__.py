"""A fake Discord, in-process: REST API and gateway over TLS on 127.0.0.1, for end-to-end tests
that drive the real bot through discord.py's own, unmodified HTTP and gateway code."""
from .server import FakeDiscord

__all__ = ["FakeDiscord"]
