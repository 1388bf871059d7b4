"""Rules on the files themselves: weights present and complete, tokenizer present.

Three cases are told apart: a header-only copy (every shard is exactly its header, as in the
bundled fixtures and `--metadata-only` copies: the metadata is checked, the weights are not
there by design), a checkpoint with no weight files at all (an interrupted download: an error),
and shards cut short inside their data (partial or corrupt: an error).
"""

from __future__ import annotations

from servebox.check.context import Context, Finding, finding


def rule_completeness(ctx: Context) -> list[Finding]:
    facts = ctx.ckpt.facts
    tensors = facts.tensors
    if ctx.flags.extra.get("load_format") == "dummy":
        # vLLM's DummyModelLoader fills the weights with random values and opens no weight file: missing or cut
        # shards do not stop it (every real 0.26.0 start of the H100 corpus ran so, from config.json alone)
        dummy = finding(
            "no-weights",
            "info",
            "--load-format dummy: vLLM reads no weight file (random weights), so none are needed",
            [f"{facts.source}: --load-format dummy"],
            "drop --load-format dummy to serve the real weights",
        )
        return [dummy, *_tokenizer(ctx)]
    if tensors is not None and not tensors.shards:
        return [
            finding(
                "no-weights",
                "error",
                "no weight files: the checkpoint holds no safetensors shard (an interrupted download?)",
                [facts.source],
                "download the weights (`servebox fetch-model REPO --dir DIR`) and check again",
            )
        ]
    if ctx.metadata_only or (tensors is not None and tensors.header_only):
        why = "--metadata-only" if ctx.metadata_only else "every shard is its header with no tensor data"
        return [
            finding(
                "header-only",
                "info",
                "header-only copy: the metadata (config, tensor headers, template) is checked; "
                "shard sizes and tokenizer files are not",
                [f"{facts.source}: {why}"],
                "check the full download before serving it",
            )
        ]
    out = []
    if tensors and not tensors.complete:
        bad = [f"{s['file']}: {s['problem']}" for s in tensors.shards if not s["complete"]]
        out.append(
            finding(
                "completeness",
                "error",
                f"{len(bad)} shard(s) incomplete: the download is partial or corrupt",
                bad[:5],
                "re-download the listed shards (`huggingface-cli download --resume` / servebox fetch-model)",
            )
        )
    return out + _tokenizer(ctx)


def _tokenizer(ctx: Context) -> list[Finding]:
    """No tokenizer file is an error unless --skip-tokenizer-init (vLLM then loads none)."""
    facts = ctx.ckpt.facts
    if not facts.tokenizer_files and "--skip-tokenizer-init" not in ctx.flags.written:
        return [
            finding(
                "tokenizer-files",
                "error",
                "no tokenizer file (tokenizer.json, tokenizer.model, vocab.json)",
                [facts.source],
                "copy the tokenizer files from the base model, or pass --tokenizer",
            )
        ]
    return []
