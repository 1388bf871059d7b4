"""API keys over every endpoint but the explicit health path. Clients send `Authorization: Bearer KEY` or
`x-api-key: KEY`; the status page's browser logs in once and holds a cookie derived from the key
(HttpOnly, SameSite=Strict), and its POST buttons must also carry `x-servebox-ui: 1`, a header no
cross-site form can send, so another site cannot press them through the browser."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse

from servebox.serve.router.body import read_body
from servebox.serve.router.errors import error

OPEN_PATHS = {"/health", "/ui/login"}
COOKIE = "servebox_ui"

LOGIN_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>servebox: log in</title>
<style>body{font:15px system-ui,sans-serif;background:#0f1419;color:#e6e6e6;display:grid;place-items:center;
height:100vh;margin:0}form{background:#1a2129;padding:28px;border-radius:8px;display:grid;gap:12px;
min-width:320px}input,button{font:inherit;padding:8px;border-radius:4px;border:1px solid #3a4652;
background:#0f1419;color:inherit}button{background:#2d6cdf;border:0;cursor:pointer}</style></head>
<body><form method="post" action="/ui/login"><b>servebox status</b>
<label>API key <input type="password" name="key" id="key" autofocus></label>
<button type="submit" id="login">Log in</button>{note}</form></body></html>"""


class Keys:
    def __init__(self, keys: list[str] | None):
        self.keys = [k for k in (keys or []) if k]
        self.secret = secrets.token_bytes(32)  # per router process: a restart logs the page out

    def token(self, key: str) -> str:
        return hmac.new(self.secret, key.encode(), hashlib.sha256).hexdigest()

    def valid_key(self, candidate: str | None) -> bool:
        return bool(candidate) and any(hmac.compare_digest(candidate, k) for k in self.keys)

    def valid_cookie(self, value: str | None) -> bool:
        return bool(value) and any(hmac.compare_digest(value, self.token(k)) for k in self.keys)

    def allows(self, request: Request) -> bool:
        if not self.keys or request.url.path in OPEN_PATHS:
            return True
        bearer = request.headers.get("authorization", "")
        if bearer.lower().startswith("bearer ") and self.valid_key(bearer[7:].strip()):
            return True
        if self.valid_key(request.headers.get("x-api-key")):
            return True
        if self.valid_cookie(request.cookies.get(COOKIE)):
            return request.method in ("GET", "HEAD") or request.headers.get("x-servebox-ui") == "1"
        return False


class KeyMiddleware:
    """Pure ASGI (streams pass through untouched); answers 401 before any handler runs."""

    def __init__(self, app, keys: Keys):
        self.app, self.keys = app, keys

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not self.keys.keys:
            return await self.app(scope, receive, send)
        request = Request(scope)
        if self.keys.allows(request):
            return await self.app(scope, receive, send)
        if request.url.path.rstrip("/") == "/ui" and request.method == "GET":
            response = HTMLResponse(LOGIN_PAGE.replace("{note}", ""), status_code=401)
        else:
            response = error(
                401,
                "missing or wrong API key (send Authorization: Bearer KEY)",
                "invalid_api_key",
                {"WWW-Authenticate": "Bearer"},
            )
        await response(scope, receive, send)


async def login(request: Request, keys: Keys):
    """GET: the form; POST (form-encoded `key`): the cookie and back to /ui, or the form again."""
    if request.method == "GET" or not keys.keys:
        return RedirectResponse("/ui", status_code=303)
    fields = parse_qs((await read_body(request, 4096)).decode("utf-8", "replace"))
    key = (fields.get("key") or [""])[0]
    if not keys.valid_key(key):
        return HTMLResponse(LOGIN_PAGE.replace("{note}", '<span id="note">wrong key</span>'), status_code=401)
    response = RedirectResponse("/ui", status_code=303)
    response.set_cookie(COOKIE, keys.token(key), httponly=True, samesite="strict", path="/")
    return response
