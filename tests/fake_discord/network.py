"""How the bot reaches the fake Discord: a resolver that sends Discord's hosts to 127.0.0.1 (and
refuses every other host), and a TLS context that trusts a throw-away certificate authority."""
from __future__ import annotations

import socket
import ssl

import aiohttp
import trustme

DISCORD_HOSTS = ("discord.com", "gateway.discord.gg")


class FakeResolver(aiohttp.abc.AbstractResolver):
    def __init__(self, port: int):
        self.port = port
        self.refused: list[str] = []

    async def resolve(self, host: str, port: int = 0, family: int = socket.AF_INET):
        if host not in DISCORD_HOSTS:
            self.refused.append(host)
            raise OSError(f"the test network has no host {host!r}")
        return [{"hostname": host, "host": "127.0.0.1", "port": self.port, "family": socket.AF_INET,
                 "proto": 0, "flags": socket.AI_NUMERICHOST}]

    async def close(self) -> None:
        pass


class Certificates:
    def __init__(self):
        self.ca = trustme.CA()
        self.server_cert = self.ca.issue_cert(*DISCORD_HOSTS)

    def server_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.server_cert.configure_cert(context)
        return context

    def client_context(self) -> ssl.SSLContext:
        """Verifies certificates and host names like the default context, trusting only our CA (no
        system certificate store to load for each bot)."""
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        self.ca.configure_trust(context)
        return context
