"""The fake Discord server: REST routes, the gateway, and helpers to inject interactions."""
from __future__ import annotations

import asyncio
import json
import zlib
from dataclasses import dataclass, field

import aiohttp
from aiohttp import web

from . import payloads
from .network import Certificates, FakeResolver

API = "/api/v10"
BODY = web.RequestKey("body", object)
ZLIB_SUFFIX = b"\x00\x00\xff\xff"
MANAGE_GUILD = 1 << 5
ADMIN_PERMISSIONS = (1 << 3) | MANAGE_GUILD   # administrator | manage guild
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11)    # view channel | send messages
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)   # members | presences | message content


@dataclass
class Recorded:
    method: str
    path: str
    query: dict
    body: object


@dataclass
class Callback:
    """What the bot answered to one interaction: the callback body, then any later edits."""
    body: dict
    message_id: str | None = None
    token: str | None = None
    followups: list[dict] = field(default_factory=list)
    message: dict | None = None   # the message as the callback left it (4: new, 7: updated)

    @property
    def type(self) -> int:
        return self.body["type"]

    @property
    def data(self) -> dict:
        return self.body.get("data") or {}


class FakeDiscord:
    def __init__(self, *, guild_locale: str = "en-US", token: str | None = None,
                 commands: dict[str, list[dict]] | None = None, refuse_token: bool = False,
                 refuse_intents: bool = False):
        """``token``: the application is the one the token belongs to, the same at every start
        with it, as on Discord; without, an application of its own. ``commands``: the commands
        Discord holds for the application (kept between starts, as Discord does; changed in place).
        ``refuse_token``: every token is refused (401), as a reset one is; ``refuse_intents``: the
        application is not allowed the privileged intents (the gateway closes with 4014 when they
        are asked for)."""
        self.refuse_token, self.refuse_intents = refuse_token, refuse_intents
        self.certs = Certificates()
        self.app_id = payloads.token_user_id(token) if token else payloads.snowflake()
        self.bot_user = payloads.user(self.app_id, "Wayfinder", bot=True)
        self.owner = payloads.user(payloads.snowflake(), "Owner")
        self.guild_id = payloads.snowflake()
        self.channel_id = payloads.snowflake()
        self.channels: dict[str, str] = {self.guild_id: self.channel_id}   # guild id → its text channel
        self.routed: dict[str, tuple[int, int]] = {}   # interaction id → the shard [id, count] it went to
        self.guild_locale = guild_locale
        self.requests: list[Recorded] = []
        self.unexpected: list[Recorded] = []
        self.commands: dict[str, list[dict]] = {} if commands is None else commands   # "global" or guild id → commands held
        self.messages: dict[str, dict] = {}           # message id → message
        self.originals: dict[str, str] = {}           # interaction token → message id
        self.identify: list[dict] = []
        self._sockets: list[tuple[web.WebSocketResponse, object]] = []
        self._shards: dict[int, tuple[int, int]] = {}   # id(socket) → the shard it identified as
        self._seq = 0
        self._pending: dict[str, asyncio.Future] = {}
        self._edits: dict[str, asyncio.Queue] = {}
        self._thinking: set[str] = set()   # tokens whose "thinking…" message awaits its follow-up
        self._owed: set[str] = set()       # tokens of deferred interactions (5, 6) not answered yet
        self._ready = asyncio.Event()
        self.runner: web.AppRunner | None = None
        self.port = 0
        self.resolver: FakeResolver | None = None

    # -- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(middlewares=[self._record])
        app.router.add_get("/", self._gateway)
        app.router.add_get(API + "/users/@me", self._me)
        app.router.add_get(API + "/oauth2/applications/@me", self._application)
        app.router.add_get(API + "/gateway/bot", self._gateway_bot)
        app.router.add_get(API + "/gateway", self._gateway_bot)
        app.router.add_get(API + "/applications/{app}/commands", self._held)
        app.router.add_get(API + "/applications/{app}/guilds/{guild}/commands", self._held)
        app.router.add_put(API + "/applications/{app}/commands", self._sync)
        app.router.add_put(API + "/applications/{app}/guilds/{guild}/commands", self._sync)
        app.router.add_post(API + "/interactions/{id}/{token}/callback", self._callback)
        app.router.add_post(API + "/webhooks/{app}/{token}", self._followup)
        app.router.add_get(API + "/webhooks/{app}/{token}/messages/{message}", self._get_message)
        app.router.add_patch(API + "/webhooks/{app}/{token}/messages/{message}", self._edit_message)
        app.router.add_delete(API + "/webhooks/{app}/{token}/messages/{message}", self._delete_message)
        app.router.add_post(API + "/channels/{channel}/messages", self._channel_message)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0, ssl_context=self.certs.server_context())
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        self.resolver = FakeResolver(self.port)

    def connector(self) -> aiohttp.TCPConnector:
        """What the bot is given (``connector=``): Discord's hosts resolve here, TLS trusts our CA."""
        return aiohttp.TCPConnector(resolver=self.resolver, ssl=self.certs.client_context())

    async def close(self) -> None:
        for ws, _ in self._sockets:
            await ws.close()
        if self.runner:
            await self.runner.cleanup()

    async def wait_ready(self, timeout: float = 20) -> None:
        await asyncio.wait_for(self._ready.wait(), timeout)

    def add_guild(self, shard_id: int, shard_count: int) -> str:
        """Another server the bot is in, whose id Discord's formula puts on the given shard."""
        while True:
            guild_id = payloads.snowflake()
            if shard_of(guild_id, shard_count) == shard_id:
                self.channels[guild_id] = payloads.snowflake()
                return guild_id

    # -- REST ---------------------------------------------------------------------------------

    @web.middleware
    async def _record(self, request: web.Request, handler):
        if request.path == "/":
            return await handler(request)
        body = await self._body(request)
        record = Recorded(request.method, request.path, dict(request.query), body)
        self.requests.append(record)
        request[BODY] = body
        try:
            return await handler(request)
        except web.HTTPNotFound:
            self.unexpected.append(record)
            return web.json_response({"message": "404: Not Found", "code": 0}, status=404)

    @staticmethod
    async def _body(request: web.Request):
        if not request.can_read_body:
            return None
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            body = {"files": []}
            async for part in reader:
                if part.name == "payload_json":
                    body.update(json.loads(await part.text()))
                else:
                    body["files"].append({"name": part.name, "filename": part.filename,
                                          "size": len(await part.read())})
            return body
        text = await request.text()
        return json.loads(text) if text else None

    async def _me(self, request):
        if self.refuse_token:
            return self._json({"message": "401: Unauthorized", "code": 0}, status=401)
        return self._json(self.bot_user)

    async def _application(self, request):
        return self._json({"id": self.app_id, "name": "Wayfinder", "icon": None, "description": "",
                           "bot_public": True, "bot_require_code_grant": False, "owner": self.owner,
                           "verify_key": "0" * 64, "flags": 0, "team": None, "summary": ""})

    async def _gateway_bot(self, request):
        return self._json({"url": "wss://gateway.discord.gg", "shards": 1,
                           "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                                   "max_concurrency": 1}})

    async def _held(self, request):
        """The application's commands in the scope, as Discord answers: each with its id and
        version; the localization dicts only with ``with_localizations=true``."""
        scope = request.match_info.get("guild", "global")
        held = self.commands.get(scope, [])
        if request.query.get("with_localizations") != "true":
            held = [{k: v for k, v in c.items() if not k.endswith("_localizations")} for c in held]
        return self._json(held)

    async def _sync(self, request):
        scope = request.match_info.get("guild", "global")
        # a bulk overwrite: a command of the same name and type keeps its id, each gets a new version
        ids = {(c["name"], c.get("type", 1)): c["id"] for c in self.commands.get(scope, [])}
        synced = []
        for command in request[BODY]:
            id_ = ids.get((command["name"], command.get("type", 1))) or payloads.snowflake()
            synced.append({**command, "id": id_, "application_id": self.app_id,
                           "version": payloads.snowflake(),
                           **({"guild_id": scope} if scope != "global" else {})})
        self.commands[scope] = synced
        return self._json(synced)

    async def _callback(self, request):
        interaction_id, token = request.match_info["id"], request.match_info["token"]
        body = request[BODY]
        kind = body["type"]
        message = None
        if kind in (4, 5):
            message_id = payloads.snowflake()
            message = self._store(message_id, body.get("data") or {}, files=body.get("files"))
            self.originals[token] = message_id
            if kind == 5:
                self._thinking.add(token)
                self._owed.add(token)
        elif kind in (6, 7):
            message_id = self.originals.get(token)
            if kind == 7 and message_id:
                message = self._store(message_id, body.get("data") or {}, update=True, files=body.get("files"))
        else:
            message_id = None
        if kind == 6:
            self._owed.add(token)
        callback = Callback(body, message_id, message=message if kind in (4, 7) else None)
        future = self._pending.get(interaction_id)
        if future and not future.done():
            future.set_result(callback)
        answer = {"interaction": {"id": interaction_id, "type": 2, "activity_instance_id": None,
                                  "response_message_id": message_id, "response_message_loading": kind == 5,
                                  "response_message_ephemeral": bool((body.get("data") or {}).get("flags", 0) & 64)}}
        if message is not None:
            answer["resource"] = {"type": kind, "message": message}
        elif kind in (6, 8, 9):
            answer["resource"] = {"type": kind}
        return self._json(answer)

    async def _followup(self, request):
        token, body = request.match_info["token"], request[BODY] or {}
        original = self.originals.get(token)
        self._owed.discard(token)
        if token in self._thinking and original in self.messages:
            # Discord shows the first follow-up in place of "thinking…", as private as the deferral
            self._thinking.discard(token)
            message = self._store(original, {k: v for k, v in body.items() if k != "flags"}, update=True,
                                  files=body.get("files"))
        else:
            self._thinking.discard(token)
            message = self._store(payloads.snowflake(), body, files=body.get("files"))
        self._edit_queue(request.match_info["token"]).put_nowait(("followup", message))
        return self._json(message)

    def _message_id(self, request) -> str | None:
        wanted = request.match_info["message"]
        return self.originals.get(request.match_info["token"]) if wanted == "@original" else wanted

    async def _get_message(self, request):
        message = self.messages.get(self._message_id(request) or "")
        return self._json(message) if message else self._json({"message": "Unknown Message", "code": 10008}, 404)

    async def _edit_message(self, request):
        message_id = self._message_id(request)
        if not message_id:
            return self._json({"message": "Unknown Message", "code": 10008}, 404)
        message = self._store(message_id, request[BODY] or {}, update=True, files=(request[BODY] or {}).get("files"))
        self._thinking.discard(request.match_info["token"])
        self._owed.discard(request.match_info["token"])
        self._edit_queue(request.match_info["token"]).put_nowait(("edit", message))
        return self._json(message)

    async def _delete_message(self, request):
        self.messages.pop(self._message_id(request) or "", None)
        return web.Response(status=204)

    async def _channel_message(self, request):
        message_id = payloads.snowflake()
        message = self._store(message_id, request[BODY] or {})
        self._edit_queue("channel").put_nowait(("message", message))
        return self._json(message)

    def _store(self, message_id: str, body: dict, update: bool = False, files: list[dict] | None = None) -> dict:
        if update and message_id in self.messages:
            message = dict(self.messages[message_id])
            for key in ("content", "embeds", "components", "flags"):
                if key in body:
                    message[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
            if "attachments" in body:
                message["attachments"] = payloads.attachments(body, files)
        else:
            message = payloads.message(message_id, self.channel_id, self.bot_user, body, self.guild_id, files)
        message["allowed_mentions"] = body.get("allowed_mentions", message.get("allowed_mentions"))
        self.messages[message_id] = message
        return message

    def _edit_queue(self, token: str) -> asyncio.Queue:
        return self._edits.setdefault(token, asyncio.Queue())

    @staticmethod
    def _json(data, status: int = 200) -> web.Response:
        # discord.py parses a body as JSON only when the content type is exactly application/json
        return web.Response(body=json.dumps(data).encode(), status=status,
                            headers={"Content-Type": "application/json"})

    # -- gateway ------------------------------------------------------------------------------

    async def _gateway(self, request):
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        compressor = zlib.compressobj() if request.query.get("compress") == "zlib-stream" else None
        self._sockets.append((ws, compressor))
        await self._send(ws, compressor, {"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        async for frame in ws:
            if frame.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(frame.data)
            op = data.get("op")
            if op == 1:
                await self._send(ws, compressor, {"op": 11, "d": None, "s": None, "t": None})
            elif op == 2:
                self.identify.append(data["d"])
                if self.refuse_intents and data["d"].get("intents", 0) & PRIVILEGED_INTENTS:
                    await ws.close(code=4014, message=b"Disallowed intent(s).")
                    break
                shard = tuple(data["d"].get("shard") or (0, 1))
                self._shards[id(ws)] = shard
                guilds = [g for g in self.channels if shard_of(g, shard[1]) == shard[0]]
                await self._dispatch_to(ws, compressor, "READY", {
                    "v": 10, "user": self.bot_user, "guilds": [{"id": g, "unavailable": True} for g in guilds],
                    "session_id": "session", "resume_gateway_url": "wss://gateway.discord.gg",
                    "shard": list(shard), "application": {"id": self.app_id, "flags": 0},
                    "private_channels": [], "relationships": [], "presences": [], "geo_ordered_rtc_regions": []})
                for guild_id in guilds:
                    await self._dispatch_to(ws, compressor, "GUILD_CREATE",
                                            payloads.guild(guild_id, self.owner["id"], self.channels[guild_id],
                                                           self.guild_locale))
                self._ready.set()
        return ws

    async def _send(self, ws, compressor, payload: dict) -> None:
        raw = json.dumps(payload).encode()
        if compressor is None:
            await ws.send_str(raw.decode())
        else:
            await ws.send_bytes(compressor.compress(raw) + compressor.flush(zlib.Z_SYNC_FLUSH))

    async def _dispatch_to(self, ws, compressor, event: str, data: dict) -> None:
        self._seq += 1
        await self._send(ws, compressor, {"op": 0, "t": event, "s": self._seq, "d": data})

    async def dispatch(self, event: str, data: dict) -> None:
        """Send an event to the shard that serves its server (direct messages: shard 0), as Discord does."""
        for ws, compressor in self._sockets:
            shard = self._shards.get(id(ws), (0, 1))
            if not ws.closed and shard_of(data.get("guild_id"), shard[1]) == shard[0]:
                if "id" in data:
                    self.routed[data["id"]] = shard
                await self._dispatch_to(ws, compressor, event, data)

    # -- interactions -------------------------------------------------------------------------

    def new_user(self, name: str = "Player") -> dict:
        return payloads.user(payloads.snowflake(), name)

    def interaction(self, kind: int, data: dict, *, user: dict | None = None, locale: str = "en-US",
                    permissions: int = MEMBER_PERMISSIONS, message: dict | None = None,
                    guild: bool = True, guild_id: str | None = None) -> dict:
        user = user or self.owner
        guild_id = guild_id or self.guild_id
        channel_id = self.channels[guild_id]
        payload = {
            "id": payloads.snowflake(), "application_id": self.app_id, "type": kind, "data": data,
            "token": "token-" + payloads.snowflake(), "version": 1, "locale": locale,
            "app_permissions": str(MEMBER_PERMISSIONS), "entitlements": [], "authorizing_integration_owners": {"0": guild_id},
            "attachment_size_limit": 26214400, "context": 0 if guild else 1,
        }
        if guild:
            payload.update(guild_id=guild_id, guild_locale=self.guild_locale,
                           member=payloads.member(user, permissions),
                           channel={"id": channel_id, "type": 0, "guild_id": guild_id, "name": "general",
                                    "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None},
                           channel_id=channel_id)
        else:
            payload.update(user=user, channel={"id": payloads.snowflake(), "type": 1, "recipients": [user]})
        if message is not None:
            payload["message"] = message
            self.originals[payload["token"]] = message["id"]
        return payload

    def command_id(self, name: str) -> str:
        for command in self.commands.get("global", []):
            if command["name"] == name:
                return command["id"]
        return payloads.snowflake()

    async def send(self, payload: dict, timeout: float = 10.0) -> Callback:
        """Inject an interaction over the gateway and wait for the bot's callback."""
        future = asyncio.get_running_loop().create_future()
        self._pending[payload["id"]] = future
        await self.dispatch("INTERACTION_CREATE", payload)
        try:
            callback = await asyncio.wait_for(future, timeout)
            callback.token = payload["token"]
            return callback
        finally:
            self._pending.pop(payload["id"], None)

    async def slash(self, name: str, options: list[dict] | None = None, **kwargs) -> Callback:
        data = {"id": self.command_id(name), "name": name, "type": 1, "options": options or []}
        return await self.send(self.interaction(2, data, **kwargs))

    async def autocomplete(self, name: str, options: list[dict], **kwargs) -> Callback:
        data = {"id": self.command_id(name), "name": name, "type": 1, "options": options}
        return await self.send(self.interaction(4, data, **kwargs))

    async def click(self, message_id: str, custom_id: str, *, values: list[str] | None = None,
                    component_type: int = 2, **kwargs) -> Callback:
        data = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = values
        return await self.send(self.interaction(3, data, message=self.messages[message_id], **kwargs))

    async def next_edit(self, token: str, timeout: float = 10.0):
        return await asyncio.wait_for(self._edit_queue(token).get(), timeout)

    # -- one test after another on the same bot -------------------------------------------------

    async def settle(self, timeout: float = 30.0) -> set[str]:
        """Wait until every interaction sent has its callback and every deferred one its follow-up
        or edit; the tokens still unanswered after ``timeout`` seconds."""
        deadline = asyncio.get_running_loop().time() + timeout
        while (self._pending or self._owed) and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        return set(self._owed) | {f"interaction {i}" for i in self._pending}

    def forget(self) -> None:
        """Drop what was sent and received so far (requests, messages, answers to read), so that the
        next test on the same bot reads only its own interactions' answers. The gateway, the synced
        commands and the servers stay."""
        self.requests, self.unexpected = [], []
        self.messages, self.originals, self.routed = {}, {}, {}
        self._edits, self._thinking, self._owed = {}, set(), set()
        if self.resolver is not None:
            self.resolver.refused = []

    # -- reading what was sent ----------------------------------------------------------------

    def bodies_sent(self) -> list[dict]:
        """Every message body the bot sent (callbacks with data, followups, edits)."""
        out = []
        for r in self.requests:
            if r.method in ("POST", "PATCH") and isinstance(r.body, dict) and (
                    "/callback" in r.path or "/webhooks/" in r.path or "/messages" in r.path):
                if "/callback" in r.path and ("data" not in r.body or r.body.get("type") in (5, 6)):
                    continue   # a deferral ("thinking…", private or not, or a pending edit) carries no message
                out.append(r.body["data"] if "/callback" in r.path else r.body)
        return out


def shard_of(guild_id: str | None, shard_count: int) -> int:
    """Discord's formula: the shard that receives a server's events (direct messages: shard 0)."""
    return (int(guild_id) >> 22) % shard_count if guild_id else 0
