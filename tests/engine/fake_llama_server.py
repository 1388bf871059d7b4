"""A stand-in for llama.cpp's llama-server (which is not built on these machines): it takes the
same command line servebox renders (-m MODEL --host H --port P --alias NAME ...) and serves the
replaying OpenAI-compatible API of tests/replay_server.py on that port. Used only to test the
supervisor's process handling (on-demand start, group swap, TTL stop), never to judge an engine."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from tests.replay_server import ReplayServer  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-m")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--alias")
    args, _ = parser.parse_known_args()
    print(f"main: server is listening on http://{args.host}:{args.port} - starting the main loop", flush=True)
    server = ReplayServer({"": ("", f"Answer: {args.alias}", "stop")})
    server.server.config.port = args.port
    server.server.run()


if __name__ == "__main__":
    main()
