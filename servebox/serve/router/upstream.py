"""The router's side of each engine connection: a keep-alive pool, headers cleaned of hop-by-hop fields
and of the client's credentials, and one retry on a fresh connection when a pooled connection turns out
closed before the engine sent a byte back (llama-server closes idle keep-alive connections on its own
schedule: under load, 1-11 % of streams failed with ClientOSError without this)."""

from __future__ import annotations

import aiohttp

HOP_HEADERS = {"content-length", "transfer-encoding", "connection", "keep-alive", "content-encoding", "host"}
CREDENTIALS = {"authorization", "x-api-key", "cookie", "proxy-authorization"}
# a stale pooled connection shows up as one of these before any response byte (ClientConnectorError,
# a refused connect, is a ClientOSError too: retrying it once costs one connect attempt)
RETRYABLE = (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError)


def upstream_headers(headers) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k.lower() not in HOP_HEADERS | CREDENTIALS}


def client_headers(headers) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k.lower() not in HOP_HEADERS}


class Upstream:
    """Created lazily inside the server's event loop, closed by the app's lifespan."""

    def __init__(self, keepalive_s: float = 4.0, connect_s: float = 10.0):
        self.keepalive_s, self.connect_s = keepalive_s, connect_s
        self._pool: aiohttp.ClientSession | None = None
        self.retries = 0  # how many requests needed the fresh-connection retry (exported on /metrics)

    def _session(self, fresh: bool) -> aiohttp.ClientSession:
        connector = (
            aiohttp.TCPConnector(force_close=True)
            if fresh
            else aiohttp.TCPConnector(limit=1024, limit_per_host=512, keepalive_timeout=self.keepalive_s)
        )
        return aiohttp.ClientSession(
            connector=connector,
            timeout=aiohttp.ClientTimeout(total=None, connect=self.connect_s),
            auto_decompress=False,
        )

    def pool(self) -> aiohttp.ClientSession:
        if self._pool is None:
            self._pool = self._session(fresh=False)
        return self._pool

    async def request(self, method: str, url: str, body: bytes | None, headers: dict) -> Opened:
        try:
            return Opened(await self.pool().request(method, url, data=body, headers=headers))
        except RETRYABLE:
            self.retries += 1
        fresh = self._session(fresh=True)
        try:
            response = await fresh.request(method, url, data=body, headers=headers)
        except BaseException:
            await fresh.close()
            raise
        return Opened(response, fresh)

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()


class Opened:
    """An upstream response and, after a retry, the one-off session it came on (closed with it)."""

    def __init__(self, response: aiohttp.ClientResponse, session: aiohttp.ClientSession | None = None):
        self.response, self.session = response, session

    async def close(self) -> None:
        self.response.close()
        if self.session is not None:
            await self.session.close()
            self.session = None
