"""systemd units for a spec with [[hosts]]: one folder per host, each with only what runs there.

What each node runs comes from deploy/node_argv.py (vLLM's own "mp" multi-node mode with --headless
secondary nodes, or a Ray head and workers); this module only places those commands in units with the
engine tier's JIT-safe hardening (deploy/systemd.py) and what NCCL, Gloo and Ray need across hosts:
AF_INET/AF_INET6/AF_NETLINK (already in the engine tier) and an IPAddressAllow= that names the model's
peers (localhost plus every node's resolved address; IPAddressDeny=any stays). systemd's IP filter
takes addresses, not names, so a node given by DNS name is resolved here, with a time limit, and a
name that does not resolve is bad input. The router and llama-swap config live on the head (the
router proxies to 127.0.0.1, so every model's head must be the router's host).

With Ray, vLLM's engine is a Ray driver: it needs the head's session directory in /tmp/ray, and
PrivateTmp= gives each unit its own /tmp, so the engine unit joins the Ray head unit's namespace
(JoinsNamespaceOf=) and finds the cluster at RAY_ADDRESS.
"""

from __future__ import annotations

import ipaddress
import socket
import threading

from servebox.deploy import render, systemd
from servebox.deploy.node_argv import NodeCommand, node_commands
from servebox.deploy.spec import Host, Model, Spec
from servebox.errors import InputError

RESOLVE_TIMEOUT_S = 3.0
NODE_NOTES = (
    "servebox cluster node: NCCL and torch.distributed keep buffers in this host's /dev/shm; give it",
    "several GiB (df -h /dev/shm; a container's 64 MiB default stalls NCCL). Set NCCL_SOCKET_IFNAME in",
    "the env file when the peers' addresses are not on the default interface. DevicePolicy=closed keeps",
    "/dev/infiniband out: NCCL uses TCP sockets unless you add DeviceAllow= for the RDMA devices.",
)


def is_cluster(spec: Spec) -> bool:
    return bool(spec.hosts)


def router_host(spec: Spec, source: str) -> Host:
    """The head every multi-host model shares; the router runs there (it proxies to 127.0.0.1)."""
    heads = {m.nodes[0]: m.name for m in spec.models if m.nodes}
    if len(heads) > 1:
        (a, ma), (b, mb) = sorted(heads.items(), key=lambda kv: kv[1])[:2]
        raise InputError(
            source,
            f"models[{mb}].nodes",
            f"head {b!r} differs from {ma}'s head {a!r}: the router proxies to 127.0.0.1, so every model's head must be one host",
        )
    name = next(iter(heads), spec.hosts[0].name)
    return next(h for h in spec.hosts if h.name == name)


def render_cluster_files(spec: Spec, source: str = "spec") -> dict[str, str]:
    """{HOST/relative path: text} for every host of the cluster."""
    head = router_host(spec, source)
    spanning = [m for m in spec.models if len(m.nodes) > 1]
    for model in spanning:
        if model.engine != "vllm":
            raise InputError(
                source, f"models[{model.name}].nodes", "only vLLM runs across nodes; llama.cpp runs on one"
            )
    as_units = {m.name: m.model_copy(update={"run_as_unit": True}) for m in spanning}
    head_spec = spec.model_copy(
        update={"host": head, "models": [as_units.get(m.name, m) for m in spec.models]}
    )
    per_host: dict[str, dict[str, str]] = {h.name: {} for h in spec.hosts}
    per_host[head.name] = render.render_files(head_spec, source)
    for model in (as_units[m.name] for m in spanning):
        peers, dns = _peer_addresses(spec, model, source), _dns_notes(spec, model)
        for node in node_commands(spec, model):
            per_host[node.host.name].update(_node_files(spec, model, node, peers, NODE_NOTES + dns))
    for host in spec.hosts:  # the head's users came with its one-box files
        users = [as_units[m.name] for m in spanning if host.name in m.nodes[1:]]
        if host.name != head.name and users:
            per_host[host.name][render.SYSUSERS] = systemd.sysusers(spec.model_copy(update={"models": users}))
    return {f"{host}/{rel}": text for host, files in per_host.items() for rel, text in files.items()}


def _node_files(
    spec: Spec, model: Model, node: NodeCommand, peers: tuple[str, ...], notes: tuple[str, ...]
) -> dict[str, str]:
    env_name = f"servebox-{model.name}.env"
    env_path = f"{render.CONFIG_DIR}/env/{env_name}"
    files = {f"env/{env_name}": systemd.environment_file(model)}
    for unit, placement in _placements(model, node, peers, notes):
        files[f"systemd/{unit}"] = systemd.engine_unit(spec, model, env_path, placement)
    return files


def _placements(
    model: Model, node: NodeCommand, peers: tuple[str, ...], notes: tuple[str, ...]
) -> list[tuple[str, systemd.Placement]]:
    """Unit file name and placement of each process NODE runs for MODEL."""
    base = {"host": node.host, "peers": peers, "notes": notes}
    name = f"servebox-{model.name}"
    if model.multi_node_backend == "mp":
        unit = f"{name}.service" if node.head else f"{name}-node{node.rank}.service"
        role = "engine (head, node 0)" if node.head else f"headless node {node.rank}"
        return [(unit, systemd.Placement(argv=node.commands[0], role=role, **base))]
    if not node.head:
        return [
            (
                f"{name}-ray-worker.service",
                systemd.Placement(argv=node.commands[0], role="ray worker", **base),
            )
        ]
    ray_unit = f"{name}-ray-head.service"
    ray_address = f"{node.host.address}:{model.master_port}"
    return [
        (ray_unit, systemd.Placement(argv=node.commands[0], role="ray head", **base)),
        (
            f"{name}.service",
            systemd.Placement(
                argv=node.commands[1],
                role="engine (ray driver)",
                unit_lines=(f"Requires={ray_unit}", f"After={ray_unit}", f"JoinsNamespaceOf={ray_unit}"),
                environment={"RAY_ADDRESS": ray_address},
                **base,
            ),
        ),
    ]


def _dns_notes(spec: Spec, model: Model) -> tuple[str, ...]:
    """Nodes named by DNS: the unit itself looks the names up, and with IPAddressDeny=any only /etc/hosts
    or a resolver on localhost (systemd-resolved, nscd) can answer."""
    named = sorted({h.address for h in spec.nodes_of(model) if h.address and not _is_ip(h.address)})
    if not named:
        return ()
    return (
        f"{', '.join(named)}: resolved when rendered, for IPAddressAllow=; inside this unit only /etc/hosts",
        "or a resolver on localhost can answer (IPAddressDeny=any). Render again if an address changes.",
    )


def _is_ip(address: str) -> bool:
    try:
        ipaddress.ip_address(address)
        return True
    except ValueError:
        return False


def _peer_addresses(spec: Spec, model: Model, source: str) -> tuple[str, ...]:
    """Every IP address of MODEL's nodes, for IPAddressAllow=; a node without one is bad input."""
    out: list[str] = []
    for host in spec.nodes_of(model):
        field = f"hosts[{host.name}].address"
        if host.address is None:
            raise InputError(
                source, field, f"{model.name} spans this host: its peers must reach it at an address"
            )
        ips = resolve(host.address)
        out += [ip for ip in ips if ip not in out]
        if not ips:
            raise InputError(
                source, field, f"{host.address!r} does not resolve here (IPAddressAllow= needs IPs)"
            )
    return tuple(out)


def resolve(address: str) -> list[str]:
    """ADDRESS as IP addresses: a literal as is, a name through getaddrinfo within RESOLVE_TIMEOUT_S."""
    try:
        return [str(ipaddress.ip_address(address))]
    except ValueError:
        pass
    found: list[str] = []

    def lookup() -> None:
        try:
            infos = socket.getaddrinfo(address, None, type=socket.SOCK_STREAM)
            found.extend(sorted({str(info[4][0]) for info in infos}))
        except (OSError, UnicodeError):
            pass

    thread = threading.Thread(target=lookup, daemon=True)
    thread.start()
    thread.join(RESOLVE_TIMEOUT_S)
    return list(found)


def install_steps_by_host(files: dict[str, str], out) -> dict[str, list[str]]:
    """Per host: the commands that install its folder (run on that host, from a copy of OUT/HOST)."""
    hosts = sorted({rel.split("/", 1)[0] for rel in files})
    return {
        host: render.install_steps(
            {rel.split("/", 1)[1]: text for rel, text in files.items() if rel.startswith(f"{host}/")},
            out / host,
        )
        for host in hosts
    }
