"""What the scored batch fresh-63 (public Ollama threads) taught after it was scored: doctor reads Ollama's own words.

Each log is written in ANOTHER wording than its corpus log (a sibling message from Ollama's source, another version,
another client quoting it), so the test checks the class of wording, not the one line it was learnt from; the near
misses check what must not match (other Go programs' words of the same shape).
"""

from __future__ import annotations

import pytest

from tests.doctor_text import assert_named, assert_not_confident, params, run, top_cause

CASES = [
    # host-memory-exhausted (public-ollama-*-requires-more-system-memory): the server's side, its slog warning before
    # the refusal (llm/server.go, 0.5-0.20) and the refusal as the server's ERROR line
    (
        "host-memory-exhausted",
        'time=2025-02-11T09:12:40.118Z level=WARN source=server.go:136 msg="model request too large for system" '
        'requested="39.6 GiB" available=16632086528 total="15.5 GiB" free="14.9 GiB" swap="0 B"\n'
        'time=2025-02-11T09:12:40.118Z level=ERROR source=sched.go:455 msg="error loading llama server" '
        'error="model requires more system memory (39.6 GiB) than is available (15.5 GiB)"\n',
    ),
    # an API client quoting the body (Open WebUI's form)
    (
        "host-memory-exhausted",
        'Ollama: 500, message=\'Internal Server Error\': {"error":"model requires more system memory (5.6 GiB) '
        'than is available (4.1 GiB)"}\n',
    ),
    # hub-server-error (public-ollama-pull-manifest-registry-cloudflare-500): a 503 as 2024's client prints it, and
    # Ollama 0.1.x's 'on pull registry responded with code' (server/images.go)
    ("hub-server-error", "pulling manifest\nError: pull model manifest: 503: upstream connect error\n"),
    (
        "hub-server-error",
        "Error: on pull registry responded with code 502: <html><head><title>502 Bad Gateway</title></head>\n",
    ),
    # unknown-architecture (public-ollama-create-safetensors-*-unsupported-architecture): another class, as the API's
    # JSON error body shows it (quotes escaped)
    (
        "unknown-architecture",
        'transferring model data 100%\nconverting model\n{"error":"unsupported architecture '
        '\\"Gemma3nForConditionalGeneration\\""}\n',
    ),
    ("unknown-architecture", 'Error: unsupported architecture "Phi3SmallForCausalLM"\n'),
    # Ollama's MLX runner (x/mlxrunner/model/base/base.go): no quotes, after a colon
    (
        "unknown-architecture",
        'time=2026-03-02T08:00:01Z level=ERROR source=server.go:301 msg="failed to load model" '
        'error="unsupported architecture: Qwen3NextForCausalLM"\n',
    ),
    # ollama-too-old-for-model-template (public-ollama-0*-template-*-field): a template using .Tools on Ollama
    # 0.2's Values, .Thinking on a *api.Message of 0.8, and 0.2's parse error for the json function of tool templates
    (
        "ollama-too-old-for-model-template",
        'Error: template: :5:7: executing "" at <.Tools>: can\'t evaluate field Tools in type *template.Values\n',
    ),
    (
        "ollama-too-old-for-model-template",
        'time=2025-06-01T10:00:00Z level=ERROR source=routes.go:1500 msg="chat prompt error" error="template: :12:14: '
        'executing \\"\\" at <.Thinking>: can\'t evaluate field Thinking in type *api.Message"\n',
    ),
    ("ollama-too-old-for-model-template", 'Error: template: :3: function "json" not defined\n'),
    # ollama-obsolete-pip-prototype (public-ollama-old-pip-prototype-api-models-404): the traceback's last line
    (
        "ollama-obsolete-pip-prototype",
        "    response.raise_for_status()\nrequests.exceptions.HTTPError: 404 Client Error: Not Found for url: "
        "https://ollama.ai/api/models\n",
    ),
]

NEAR_MISSES = [
    # Helm's template error names its template: not Ollama's
    (
        "ollama-too-old-for-model-template",
        'Error: template: mychart/templates/deployment.yaml:12:20: executing "mychart/templates/deployment.yaml" at '
        "<.Values.image.repo>: can't evaluate field repo in type interface {}\n",
    ),
    # a Modelfile TEMPLATE with a typo: Ollama's template, but a field no version has -> only a guess
    (
        "ollama-too-old-for-model-template",
        'Error: template: :1:3: executing "" at <.Promt>: can\'t evaluate field Promt in type *api.Message\n',
    ),
    # a CPU architecture, not a model class
    ("unknown-architecture", 'Error: unsupported architecture "riscv64"\n'),
    ("unknown-architecture", "components: unsupported architecture: s390x\n"),
    # 412 asks for a newer Ollama, 404 is the tag's: not the registry's outage
    (
        "hub-server-error",
        "Error: pull model manifest: 412: The model you are attempting to pull requires a newer version of Ollama.\n",
    ),
    # today's ollama-python client's 404 from the local server (a model not pulled): not the prototype
    (
        "ollama-obsolete-pip-prototype",
        "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: http://localhost:11434/api/chat\n",
    ),
]


@pytest.mark.parametrize(("expected", "log"), params(CASES))
def test_the_family_names_the_cause(expected, log):
    assert_named(expected, log)


@pytest.mark.parametrize(("family", "log"), params(NEAR_MISSES))
def test_a_near_miss_is_not_named_confidently(family, log):
    assert_not_confident(family, log)


@pytest.mark.parametrize(
    "line",
    ["Error: pull model manifest: file does not exist\n", "Error: pull model manifest: model not found\n"],
)
def test_a_missing_manifest_is_the_tag_or_name_below_confident(line):
    """The registry's words are the same for a wrong tag and a wrong model name (0.1.x said 'model not found'):
    hub-revision-not-found is named with Ollama's own cause, below 0.70."""
    top = top_cause(run("pulling manifest\n" + line))
    assert top is not None and top.id == "hub-revision-not-found" and top.confidence < 0.7
    assert "tag" in top.cause and "name" in top.cause


def test_a_typo_in_a_modelfile_template_is_named_as_a_guess():
    top = top_cause(run(NEAR_MISSES[1][1]))
    assert top is not None and top.id == "ollama-too-old-for-model-template" and top.confidence < 0.7


@pytest.mark.parametrize(
    "log",
    [
        # llm/server.go's rewrite of its llama.cpp's 'unknown model architecture' (0.1.3x-0.20)
        "Error: llama runner process has terminated: this model is not supported by your version of Ollama. You may "
        "need to upgrade\n",
    ],
)
def test_a_model_newer_than_ollama_is_named_with_ollamas_fix(log):
    top = top_cause(run(log))
    assert top is not None and top.id == "llamacpp-unknown-arch" and top.confidence < 0.7
    assert "Update Ollama" in top.fix  # the hint's own fix (hint_fix), not llama.cpp's


def test_the_registrys_412_is_its_own_family_since_after30a():
    """The registry's 412 for a model that needs a newer Ollama (server/images.go passes the body on): nothing was
    loaded, so since after30a (fresh-98) it is ollama-too-old-for-model-pull, with the same kind of fix."""
    log = (
        "Error: pull model manifest: 412: \n\nThe model you are attempting to pull requires a newer version of "
        "Ollama.\n\nPlease download the latest version at:\n\n\thttps://ollama.com/download\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "ollama-too-old-for-model-pull" and "Update Ollama" in top.fix
