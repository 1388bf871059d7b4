"""The status page and the JSON it polls: engines (state, phase, uptime, restarts, last incident, memory),
recent requests with tokens/s, each engine's log tail, and the start/stop/unload buttons' endpoints.
The page is plain HTML/CSS/JS shipped in the package (servebox/serve/ui): no build step, nothing external."""

from __future__ import annotations

from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from servebox.serve.router.errors import RouterError

UI = Path(__file__).resolve().parent.parent / "ui"
ASSETS = {"ui.js": "text/javascript", "ui.css": "text/css"}
ACTIONS = ("start", "stop", "unload")
MAX_LOG_LINES = 2000


def routes(router) -> list[Route]:
    control, sup = router.control, router.sup

    def engine(request: Request) -> str:
        name = request.path_params["model"]
        if name not in sup.engines:
            raise RouterError(
                404, f"unknown model {name[:120]!r}", "model_not_found", models=sorted(sup.engines)
            )
        return name

    async def status(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(control.status))

    async def requests(request: Request) -> Response:
        return JSONResponse({"requests": router.requests.recent(100, request.query_params.get("model"))})

    async def log(request: Request) -> Response:
        name = engine(request)
        lines = request.query_params.get("lines", "200")
        if not lines.isdigit():
            raise RouterError(400, "lines: expected a whole number", "bad_parameter")
        process = sup.engines[name].process
        if process is None:
            return PlainTextResponse(f"{name} runs as its own systemd unit: journalctl -u {name}\n")
        text = await run_in_threadpool(process.log_tail, min(int(lines), MAX_LOG_LINES))
        return PlainTextResponse(text)

    async def action(request: Request) -> Response:
        name, verb = engine(request), request.path_params["action"]
        if verb not in ACTIONS:
            raise RouterError(404, f"no action {verb[:40]!r} (start, stop, unload)", "not_found")
        if sup.engines[name].process is None:
            raise RouterError(
                409, f"{name} runs as its own systemd unit: use systemctl {verb} {name}", "not_managed"
            )
        if verb == "start":
            control.start(name)
        else:
            await run_in_threadpool(control.stop, name, verb == "stop")
        st = sup.engines[name]
        return JSONResponse({"model": name, "action": verb, "state": st.verdict.state}, status_code=202)

    async def page(request: Request) -> Response:
        return Response((UI / "index.html").read_bytes(), media_type="text/html")

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            raise RouterError(404, f"no asset {name!r}", "not_found")
        return Response((UI / name).read_bytes(), media_type=ASSETS[name])

    return [
        Route("/servebox/status", status),
        Route("/servebox/requests", requests),
        Route("/servebox/engines/{model}/log", log),
        Route("/servebox/engines/{model}/{action}", action, methods=["POST"]),
        Route("/ui", page),
        Route("/ui/", page),
        Route("/ui/static/{name}", asset),
    ]
