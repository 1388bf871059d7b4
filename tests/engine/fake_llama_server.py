"""A stand-in for llama.cpp's llama-server, for the supervisor tests that need many fast starts and
restarts (a real engine takes 1-4 minutes per start here, so ten restarts of one would not fit in
CI): it takes the same command line servebox renders (-m MODEL --host H --port P --alias NAME ...)
and serves the replaying OpenAI-compatible API of tests/replay_server.py on that port. Used only to
test the supervisor's process handling, never to judge an engine. Faults it can be told to have
(environment variables, set through the spec's `env`):

  FAKE_PHASES="a,b,c" + FAKE_PHASE_S  log these start-up lines, FAKE_PHASE_S seconds apart, before listening
  FAKE_STUCK=1                        after the phase lines, never listen (a start stuck in a phase)
  FAKE_FAIL_AT_START="line"           log the line and exit 1 before listening (a deterministic failure)
  FAKE_CRASH_ON_REQUEST=1             exit 1 on every completion request (a crash under traffic)
  FAKE_TOKEN_DELAY_S=0.2              seconds between streamed pieces (a request that stays in flight)
  FAKE_CHILD=1                        start a child that outlives this process unless its group is
                                      killed (as vLLM's EngineCore outlives a killed API server)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))


def crash_on_request(app):
    async def wrapped(scope, receive, send):
        if scope["type"] == "http" and scope["path"].endswith("/completions"):
            print("fake: crashing on a request (FAKE_CRASH_ON_REQUEST)", flush=True)
            os._exit(1)
        await app(scope, receive, send)

    return wrapped


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-m")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--alias")
    args, _ = parser.parse_known_args()
    for line in filter(None, os.environ.get("FAKE_PHASES", "").split(",")):
        print(line, flush=True)
        time.sleep(float(os.environ.get("FAKE_PHASE_S", "0")))
    if os.environ.get("FAKE_CHILD"):
        child = subprocess.Popen(["sleep", "600"])
        print(f"fake: child pid {child.pid}", flush=True)
    if os.environ.get("FAKE_STUCK"):
        while True:
            time.sleep(60)
    if os.environ.get("FAKE_FAIL_AT_START"):
        print(os.environ["FAKE_FAIL_AT_START"], flush=True)
        sys.exit(1)
    from tests.replay_server import ReplayServer  # after the phase lines: importing takes seconds here

    print(f"main: server is listening on http://{args.host}:{args.port} - starting the main loop", flush=True)
    delay = float(os.environ.get("FAKE_TOKEN_DELAY_S", "0"))
    server = ReplayServer({"": ("", f"Answer: {args.alias} " * 10, "stop")}, token_delay_s=delay)
    server.server.config.port = args.port
    if os.environ.get("FAKE_CRASH_ON_REQUEST"):
        server.server.config.app = crash_on_request(server.server.config.app)
    server.server.run()


if __name__ == "__main__":
    main()
