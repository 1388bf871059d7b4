"""Rules for a model that spans nodes: the layout vLLM accepts, where TP and PP cross nodes, and what NCCL needs.

vLLM's multi-node launch (engine/arg_utils.py) refuses a world size (DP x PP x TP) that --nnodes does not divide,
and gives each node world / nnodes consecutive ranks with TP fastest: a TP group wider than a node's GPUs
all-reduces over the network every layer, where PP sends one activation per stage. NCCL between nodes needs
an interface it can reach the peers on (NCCL_SOCKET_IFNAME when the first one it finds is not it), netlink to
list interfaces, /dev/shm for the GPUs inside a node, and every node must load the same engine build and files.
"""

from __future__ import annotations

from servebox.check.context import Context, Finding, finding
from servebox.errors import InputError
from servebox.plan.stages import PARTITION_VAR, partition


def _layout(ctx: Context) -> tuple[int, int, int, int, int | None]:
    """(TP, PP, DP, nodes, GPUs per node); nodes default, as in `plan`, to what the GPUs per node need."""
    f = ctx.flags
    world = f.tensor_parallel_size * f.pipeline_parallel_size * f.data_parallel_size
    nodes = f.nnodes or (-(-world // f.gpus_per_node) if f.gpus_per_node else 1)
    return f.tensor_parallel_size, f.pipeline_parallel_size, f.data_parallel_size, nodes, f.gpus_per_node


def rule_world(ctx: Context) -> list[Finding]:
    """What vLLM refuses (world % nnodes) or cannot place (more ranks per node than GPUs), and idle GPUs."""
    tp, pp, dp, nodes, gpn = _layout(ctx)
    world = tp * pp * dp
    layout = f"DP {dp} x PP {pp} x TP {tp} = {world} ranks"
    if world % nodes:
        return [
            finding(
                "nodes-world-size",
                "error",
                f"Invalid data-parallel launch options: `--nnodes {nodes}` must evenly divide the total world size "
                f"({world}).",
                [layout, f"--nnodes {nodes}"],
                "choose --nnodes that divides the world size, or change TP / PP / DP",
            )
        ]
    out = []
    per_node = world // nodes
    if gpn is not None and per_node > gpn:
        out.append(
            finding(
                "nodes-gpus",
                "error",
                f"{per_node} ranks per node but a node has {gpn} GPUs",
                [layout, f"{nodes} nodes x {gpn} GPUs"],
                f"--nnodes {-(-world // gpn)}, or a smaller layout",
            )
        )
    elif gpn is not None and per_node < gpn:
        out.append(
            finding(
                "nodes-idle-gpus",
                "warn",
                f"the world size {world} is not nodes x GPUs per node ({nodes} x {gpn} = {nodes * gpn}): "
                f"{nodes * (gpn - per_node)} GPUs stay idle",
                [layout],
                f"--pipeline-parallel-size or --data-parallel-size so that DP x PP x TP = {nodes * gpn}",
            )
        )
    return out


def rule_tp_crosses_nodes(ctx: Context) -> list[Finding]:
    """A TP group spans nodes when it is wider than a node's ranks, or when the ranks per node (world / nnodes,
    consecutive, TP fastest) are not a multiple of TP, so that a group straddles the boundary."""
    tp, pp, dp, nodes, _ = _layout(ctx)
    world = tp * pp * dp
    if nodes <= 1 or world % nodes:
        return []
    local = world // nodes
    if tp <= local and local % tp == 0:
        return []
    wider = tp > local
    why = (
        f"TP {tp} is wider than a node's {local} ranks"
        if wider
        else (f"{local} ranks per node are not a multiple of TP {tp}: a TP group straddles two nodes")
    )
    fix = (
        f"--tensor-parallel-size {local} --pipeline-parallel-size {tp * pp // local}"
        if wider and (tp * pp) % local == 0
        else f"a TP size that divides the {local} ranks per node; PP across the nodes"
    )
    return [
        finding(
            "tp-crosses-nodes",
            "warn",
            f"{why}: every layer all-reduces across nodes, which needs a fast interconnect (InfiniBand / RoCE with "
            "GPUDirect); pipeline parallelism is the usual split across nodes",
            [f"--tensor-parallel-size {tp}", f"{local} ranks on each of {nodes} nodes"],
            fix,
        )
    ]


def rule_stages(ctx: Context) -> list[Finding]:
    """PP wider than the layers, or a VLLM_PP_LAYER_PARTITION vLLM's get_pp_indices refuses."""
    pp, layers = ctx.flags.pipeline_parallel_size, ctx.ckpt.architecture.num_layers
    given = ctx.flags.env.get(PARTITION_VAR)
    if pp <= 1 and given is None:
        return []
    try:
        partition(layers, pp, given)
    except InputError as exc:
        return [
            finding(
                "pp-layers",
                "error",
                exc.message,
                [f"config.json num_hidden_layers = {layers}", f"--pipeline-parallel-size {pp}"]
                + ([f"{PARTITION_VAR}={given}"] if given is not None else []),
                "a pipeline size at most the layer count, and a partition that lists one count per stage summing to it",
            )
        ]
    return []


def rule_nccl(ctx: Context) -> list[Finding]:
    """What NCCL and torch.distributed need between nodes, each with the line that provides it."""
    nodes = _layout(ctx)[3]
    if nodes <= 1:
        return []
    env = ctx.flags.env
    out = []
    if "NCCL_SOCKET_IFNAME" not in env:
        out.append(
            finding(
                "nccl-socket-ifname",
                "warn",
                "NCCL_SOCKET_IFNAME is not set: NCCL and Gloo take the first interface they find, which on a host "
                "with docker0, virbr0 or a management NIC is often one the other nodes cannot reach (the start hangs)",
                ["--env NCCL_SOCKET_IFNAME not given"],
                "Environment=NCCL_SOCKET_IFNAME=<iface> GLOO_SOCKET_IFNAME=<iface> on every node (the NIC the nodes share)",
            )
        )
    out.append(
        finding(
            "nccl-unit-network",
            "info",
            "a hardened unit must let NCCL list interfaces (AF_NETLINK) and reach the other nodes: a single-box "
            "engine unit (IPAddressAllow=localhost) blocks them; `servebox render` of a spec whose model lists "
            "`nodes` writes both",
            ["RestrictAddressFamilies / IPAddressAllow of the engine unit on every node"],
            "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK and IPAddressAllow=<the nodes' addresses>",
        )
    )
    out.append(
        finding(
            "nccl-shm",
            "info",
            "NCCL moves data between the GPUs of one node through /dev/shm: a container's default 64 MB fails "
            "with 'failed to extend /dev/shm'",
            ["/dev/shm size on each node"],
            "docker --shm-size 16g (or --ipc=host); Kubernetes: an emptyDir with medium: Memory on /dev/shm",
        )
    )
    out.append(
        finding(
            "nodes-same-build",
            "info",
            "every node must run the same vLLM build (and torch / NCCL) and load byte-identical model files: "
            "vLLM checks neither, a mismatch shows up as a hang or wrong output",
            [f"{nodes} nodes"],
            "servebox provision SPEC on each host from one lock file; servebox fetch-model REPO --dir DIR on each "
            "(verified file by file against the hub's hashes)",
        )
    )
    return out


def rule_nodes(ctx: Context) -> list[Finding]:
    return rule_world(ctx) + rule_tp_crosses_nodes(ctx) + rule_stages(ctx) + rule_nccl(ctx)
