"""Families the lead widened or added in stop 30 after scoring fresh-109 (public vLLM at scale), each tested on a
wording other than the batch's and a near miss.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

CASES = [
    # a MoE model's own assert of the expert split, another model and count
    (
        "eplb-uneven-experts",
        "(Worker_DP0_EP0 pid=7) ERROR 01-01 00:00:00 [multiproc_executor.py:912] AssertionError: n_routed_experts=160 "
        "must be divisible by ep_size=6. Adjust num_redundant_experts.\n",
    ),
    # another connector key read with [] (the proxy address of the same P2pNcclEngine)
    (
        "kv-connector-extra-config-key-missing",
        "Traceback (most recent call last):\n"
        '  File "/opt/vllm/distributed/kv_transfer/kv_connector/v1/p2p/p2p_nccl_engine.py", line 101, in __init__\n'
        "    self.proxy_address = self.config.kv_connector_extra_config['proxy_ip'] + ':' + port\n"
        "KeyError: 'proxy_ip'\n",
    ),
    # Gloo's refusal behind a torch.distributed init on Linux (a VPN's address)
    (
        "gloo-hostname-device-unusable",
        '  File "/usr/lib/python3/site-packages/torch/distributed/distributed_c10d.py", line 1700, in _new_process_group_helper\n'
        "    backend_class = ProcessGroupGloo(backend_prefix_store, group_rank, group_size, timeout=timeout)\n"
        "RuntimeError: makeDeviceForHostname(): unsupported gloo device\n",
    ),
]

NEAR_MISSES = [
    # an expert count divisible by the ranks, refused for another reason, is not this
    (
        "eplb-uneven-experts",
        "AssertionError: num_experts=256 must be a multiple of the block size 128\n",
    ),
    # the extra config read with .get() and a KeyError elsewhere is not a missing connector key
    (
        "kv-connector-extra-config-key-missing",
        "    port = self.config.kv_connector_extra_config.get('http_port', 8000)\nKeyError: 'model'\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)
