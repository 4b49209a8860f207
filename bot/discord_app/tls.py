"""aiohttp (discord.py's HTTP and websocket client) builds two TLS contexts as it is imported: the
one every connection to Discord uses, which verifies the server against the system's certificate
authorities, and one that verifies nothing (for ``ssl=False``, which the bot never asks for). It
reads the system's whole certificate-authority bundle into both: with OpenSSL 3, tens of
milliseconds of CPU each, a tenth of the bot's start-up. ``import_aiohttp`` imports it reading the
bundle once, into the context that verifies; the other, which verifies nothing, needs none.
"""
from __future__ import annotations

import ssl
import sys


def import_aiohttp() -> None:
    if "aiohttp" in sys.modules:
        return
    load = ssl.SSLContext.set_default_verify_paths
    inherited = "set_default_verify_paths" not in vars(ssl.SSLContext)

    def set_default_verify_paths(context: ssl.SSLContext) -> None:
        if context.verify_mode != ssl.CERT_NONE:
            load(context)

    ssl.SSLContext.set_default_verify_paths = set_default_verify_paths
    try:
        import aiohttp  # noqa: F401
    finally:
        if inherited:
            del ssl.SSLContext.set_default_verify_paths
        else:
            ssl.SSLContext.set_default_verify_paths = load
