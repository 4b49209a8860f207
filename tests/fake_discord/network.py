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


# A command started by a test or a benchmark reaches the harness as it would reach Discord through a
# hosts-file entry: this module, on the command's PYTHONPATH, sends Discord's hosts to the harness
# (and no other host anywhere). Nothing else of the command changes.
SITECUSTOMIZE = """
import socket

def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
    if host in {hosts!r}:
        return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", ("127.0.0.1", {port}))]
    raise socket.gaierror(socket.EAI_NONAME, f"the offline harness has no host {{host!r}}")

socket.getaddrinfo = getaddrinfo
"""


def system_authorities() -> bytes:
    """The system's certificate-authority bundle (PEM), as OpenSSL finds it by default."""
    from pathlib import Path
    cafile = ssl.get_default_verify_paths().cafile
    return Path(cafile).read_bytes() if cafile and Path(cafile).exists() else b""


def command_network(port: int, authorities: bytes, folder, pythonpath: str | None = None) -> dict:
    """The environment entries that make a `wayfinder` command started in a child process reach the
    harness listening on ``port``: Discord's host names resolve to it (a sitecustomize module in
    ``folder``), and SSL_CERT_FILE names ``authorities`` (PEM), the certificate authorities the
    command trusts, as the system's bundle would."""
    from pathlib import Path
    folder = Path(folder)
    site = folder / "network"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE.format(hosts=set(DISCORD_HOSTS), port=port))
    (folder / "ca.pem").write_bytes(authorities)
    import os
    return {"PYTHONPATH": os.pathsep.join(p for p in (str(site), pythonpath) if p),
            "SSL_CERT_FILE": str(folder / "ca.pem")}
