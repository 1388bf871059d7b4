"""Rules on the files themselves: weights present and complete, tokenizer present."""

from __future__ import annotations

from servebox.check.context import Context, Finding, finding


def rule_completeness(ctx: Context) -> list[Finding]:
    facts = ctx.ckpt.facts
    out = []
    if ctx.metadata_only:
        return [
            finding(
                "completeness",
                "info",
                "metadata-only copy: shard sizes and tokenizer files not checked",
                [facts.source],
            )
        ]
    if facts.tensors and not facts.tensors.complete:
        bad = [f"{s['file']}: {s['problem']}" for s in facts.tensors.shards if not s["complete"]]
        out.append(
            finding(
                "completeness",
                "error",
                f"{len(bad)} shard(s) incomplete: the download is partial or corrupt",
                bad[:5],
                "re-download the listed shards (`huggingface-cli download --resume` / servebox fetch-model)",
            )
        )
    if not facts.tokenizer_files:
        out.append(
            finding(
                "tokenizer-files",
                "error",
                "no tokenizer file (tokenizer.json, tokenizer.model, vocab.json)",
                [facts.source],
                "copy the tokenizer files from the base model, or pass --tokenizer",
            )
        )
    return out
