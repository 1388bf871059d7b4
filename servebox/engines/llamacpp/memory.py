"""The buffers llama-server allocates at start-up, per device, from the GGUF layout and the flags.

Model buffers, KV cache (full and sliding-window layers, K and V per cache type, the context padded to
256 and split per sequence as llama_context does), recurrent R/S state and the output buffer are
derived exactly from the pinned source (llama-model.cpp, llama-kv-cache*.cpp, llama-memory-recurrent.cpp,
llama-context.cpp); the compute buffers come from compute.py (an estimate). GPU-side padding
(CUDA's 512-element row padding of quantized matrices, 128-byte alignment) is read off ggml-cuda.cu and
is not measured here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from servebox.checkpoint.gguf_header import TYPE_BY_NAME, GGUFTensor, type_bytes
from servebox.engines.llamacpp.flags import ServerFlags
from servebox.engines.llamacpp.layout import Layout
from servebox.engines.llamacpp.placement import CPU, Placement, tensor_buffers

CPU_ALIGN, CUDA_ALIGN, CUDA_ROW_PAD = 32, 128, 512
CPU_REPACK = "CPU_REPACK"


def pad(n: int, to: int) -> int:
    return (n + to - 1) // to * to


@dataclass
class KVPart:
    kind: str  # attn or swa
    cells: int
    layers: int
    k_bytes: int
    v_bytes: int


@dataclass
class DeviceMemory:
    name: str
    model: int = 0
    kv: int = 0
    recurrent: int = 0
    compute: int = 0
    output: int = 0
    kv_parts: dict[str, KVPart] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return self.model + self.kv + self.recurrent + self.compute + self.output


@dataclass
class ContextShape:
    n_ctx: int  # after llama_context's padding
    n_ctx_seq: int  # cells per stream
    n_seq: int
    n_stream: int
    n_ubatch: int
    n_batch: int
    swa_cells: int
    flash_attn: bool


def context_shape(layout: Layout, flags: ServerFlags, n_ctx: int | None = None) -> ContextShape:
    """n_ctx as llama_context pads it (to 256, per sequence when not unified), and the SWA cache size."""
    ctx = n_ctx if n_ctx is not None else (flags.ctx_size or layout.n_ctx_train)
    n_seq = flags.n_seq
    ctx = pad(ctx, 256)
    if flags.unified:
        seq_ctx = ctx
    else:
        seq_ctx = pad(ctx // n_seq, 256)
        ctx = seq_ctx * n_seq
    n_batch = min(ctx, flags.batch)
    n_ubatch = min(n_batch, flags.ubatch)
    swa = pad(min(seq_ctx, layout.n_swa * (n_seq if flags.unified else 1) + n_ubatch), 256)
    if flags.swa_full:
        swa = seq_ctx
    return ContextShape(
        ctx, seq_ctx, n_seq, 1 if flags.unified else n_seq, n_ubatch, n_batch, swa, flags.flash_attn != "off"
    )


def _alloc(name: str, t_bytes: int, t: GGUFTensor | None = None) -> int:
    """A tensor's allocation in a buffer of this kind (ggml_backend_buft_get_alloc_size + alignment)."""
    if name == CPU:
        return pad(t_bytes, CPU_ALIGN)
    extra = 0
    if t is not None and TYPE_BY_NAME[t.type][1] > 1 and t.shape[0] % CUDA_ROW_PAD:
        extra = type_bytes(t.type, CUDA_ROW_PAD - t.shape[0] % CUDA_ROW_PAD)
    return pad(t_bytes + extra, CUDA_ALIGN)


def model_buffers(layout: Layout, flags: ServerFlags, placement: Placement) -> dict[str, int]:
    """Bytes per buffer. The CPU side under mmap is the file range its tensors span, per split file
    (get_mapping_range)."""
    sized: dict[str, int] = {}
    cpu_span: dict[int, list[int]] = {}

    def put(t: GGUFTensor, home: str) -> None:
        for buf, frac in tensor_buffers(t, home, flags, placement):
            if buf == CPU and flags.repack and _repacked(t):
                sized[CPU_REPACK] = sized.get(CPU_REPACK, 0) + _alloc(CPU, t.n_bytes)
            elif buf == CPU:
                start = t.base + t.offset
                span = cpu_span.setdefault(t.file, [start, start + t.n_bytes])
                span[0], span[1] = min(span[0], start), max(span[1], start + t.n_bytes)
                sized[CPU] = sized.get(CPU, 0) + _alloc(CPU, t.n_bytes)
            else:
                sized[buf] = sized.get(buf, 0) + _alloc(buf, int(t.n_bytes * frac), t)

    for t in layout.input_tensors:
        put(t, CPU)
    for layer, home in zip(layout.layers, placement.layer_device, strict=False):
        for t in layer.tensors:
            put(t, home)
    for t in layout.output_tensors:
        put(t, placement.output_device)
    if layout.tied_output and placement.output_device != CPU:
        for t in layout.input_tensors:  # TENSOR_DUPLICATED: token_embd copied to the output device
            if t.name == "token_embd.weight":
                sized[placement.output_device] = sized.get(placement.output_device, 0) + _alloc(
                    placement.output_device, t.n_bytes, t
                )
    if flags.mmap and cpu_span:
        sized[CPU] = sum(end - start for start, end in cpu_span.values())
    return sized


def _repacked(t: GGUFTensor) -> bool:
    """A host-side matrix weight the CPU backend repacks (token_embd is read by GET_ROWS, never repacked)."""
    from servebox.engines.llamacpp.layout import arch_table

    rule = arch_table()["cpu_repack"]
    return (
        t.type in rule["types"]
        and len(t.shape) >= 2
        and t.shape[1] % rule["row_multiple"] == 0
        and not t.name.startswith("token_embd")
    )


def _row_bytes(cache_type: str, width: int) -> int:
    return type_bytes(cache_type, width)


def kv_parts(
    layout: Layout, flags: ServerFlags, shape: ContextShape, placement: Placement
) -> list[tuple[str, KVPart]]:
    """(device, part) for every device and attention kind: K and V tensors of [width, cells, streams]."""
    out: dict[tuple[str, str], KVPart] = {}
    v_trans = not shape.flash_attn
    for layer in layout.layers:
        if layer.kind not in ("attn", "swa"):
            continue
        cells = shape.swa_cells if layer.kind == "swa" else shape.n_ctx_seq
        dev = placement.layer_device[layer.index] if flags.kv_offload else CPU
        v_width = layout.v_width_max if v_trans else layer.v_width
        k = _row_bytes(flags.cache_type_k, layer.k_width) * cells * shape.n_stream
        v = 0 if layout.mla else _row_bytes(flags.cache_type_v, v_width) * cells * shape.n_stream
        part = out.setdefault((dev, layer.kind), KVPart(layer.kind, cells, 0, 0, 0))
        part.layers += 1
        part.k_bytes += k
        part.v_bytes += v
    return [(dev, part) for (dev, _), part in out.items()]


def recurrent_bytes(
    layout: Layout, flags: ServerFlags, shape: ContextShape, placement: Placement
) -> dict[str, int]:
    rows = max(1, shape.n_seq)
    out: dict[str, int] = {}
    for layer in layout.layers:
        if layer.kind != "recr":
            continue
        dev = placement.layer_device[layer.index] if flags.kv_offload else CPU
        out[dev] = out.get(dev, 0) + 4 * (layout.n_embd_r + layout.n_embd_s) * rows
    return out


def output_bytes(layout: Layout, shape: ContextShape) -> int:
    """The logits buffer of output_reserve: n_vocab floats per sequence, on the host."""
    return 4 * layout.n_vocab * shape.n_seq
