"""Families after30d widened or added in stop 30 after scoring batch fresh-106, each tested on a wording other than
the batch's and a near miss that must not be read the same way.

- weights-shape-mismatch: a base checkpoint's own shapes against its config.json (fresh-106's hidden_size removed:
  torch's 'size of tensor a (4096) must match ... (256)' under vLLM's weight loading) -- told from a LoRA adapter's
  (lora-adapter-base-mismatch) by where the copy failed: a weight_loader / load_weights frame, not add_lora.
- engine-binary-not-executable (widened from a binary without its x bit): the engine's user may not execute the
  program or interpreter itself (fresh-106's server run as nobody: the venv's bin/python under the 0700 /root), in
  Python's subprocess, the shells', env's, runuser's, the container runtimes' words. The wordings below were caused here on Debian 12 as nobody (setpriv
  --reuid=nobody, runuser -u nobody) on /tmp/after30d/priv (0700, root's) holding venv/bin/python -> /usr/bin/python3,
  and on a 0644 copy of /bin/true named llama-server; the near misses are a cache directory nobody may not create in
  (it stays cache-permission-denied) and a shell redirect to an unwritable log file.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

WEIGHT_FRAMES = (
    "(Worker pid=812) ERROR [multiproc_executor.py:953] WorkerProc failed to start.\n"
    "(Worker pid=812) ERROR [multiproc_executor.py:953] Traceback (most recent call last):\n"
    '(Worker pid=812) ERROR [multiproc_executor.py:953]   File "/opt/venv/lib/python3.12/site-packages/vllm/'
    'model_executor/models/utils.py", line 341, in _load_param\n'
    "(Worker pid=812) ERROR [multiproc_executor.py:953]     weight_loader(param, weight_data)\n"
    '(Worker pid=812) ERROR [multiproc_executor.py:953]   File "/opt/venv/lib/python3.12/site-packages/vllm/'
    'model_executor/layers/linear.py", line 1260, in weight_loader\n'
    "(Worker pid=812) ERROR [multiproc_executor.py:953]     param_data.copy_(loaded_weight)\n"
)

SUBPROCESS_FRAMES = (
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.11/subprocess.py", line 1024, in __init__\n'
    "    self._execute_child(args, executable, preexec_fn, close_fds,\n"
    '  File "/usr/lib/python3.11/subprocess.py", line 1901, in _execute_child\n'
    "    raise child_exception_type(errno_num, err_msg, err_filename)\n"
)

CASES = [
    # torch's broadcast wording under a linear layer's weight_loader (another layer than the batch's embedding)
    (
        "weights-shape-mismatch",
        WEIGHT_FRAMES
        + "(Worker pid=812) ERROR [multiproc_executor.py:953] RuntimeError: The size of tensor a (2048) "
        "must match the size of tensor b (1024) at non-singleton dimension 0\n",
    ),
    # vLLM 0.32's default_weight_loader assert (model_loader/weight_utils.py)
    (
        "weights-shape-mismatch",
        "AssertionError: Attempted to load weight (torch.Size([4096, 256])) into parameter (torch.Size([256, 256]))\n",
    ),
    # accelerate's set_module_tensor_to_device, under transformers' from_pretrained
    (
        "weights-shape-mismatch",
        'ValueError: Trying to set a tensor of shape torch.Size([32000, 4096]) in "weight" (which has shape '
        "torch.Size([32000, 256])), this looks incorrect.\n",
    ),
    # Python's subprocess, caused here: nobody running a venv's python under a 0700 directory
    (
        "engine-binary-not-executable",
        SUBPROCESS_FRAMES
        + "PermissionError: [Errno 13] Permission denied: '/tmp/after30d/priv/venv/bin/python'\n",
    ),
    # bash -c, dash (sh -c), a file without the x bit, pyenv's shim under /root, bash's shebang: all caused here
    ("engine-binary-not-executable", "bash: line 1: /tmp/after30d/priv/venv/bin/python: Permission denied\n"),
    ("engine-binary-not-executable", "sh: 1: /tmp/after30d/priv/venv/bin/python: Permission denied\n"),
    ("engine-binary-not-executable", "bash: line 1: /tmp/after30d/pub/llama-server: Permission denied\n"),
    ("engine-binary-not-executable", "bash: /root/.pyenv/shims/python3: Permission denied\n"),
    (
        "engine-binary-not-executable",
        "bash: /tmp/after30d/pub/vllm: /tmp/after30d/priv/venv/bin/python: bad interpreter: Permission denied\n",
    ),
    # coreutils env and runuser, caused here
    (
        "engine-binary-not-executable",
        "env: \u2018/tmp/after30d/priv/venv/bin/python\u2019: Permission denied\n",
    ),
    (
        "engine-binary-not-executable",
        "runuser: failed to execute /tmp/after30d/priv/venv/bin/python: Permission denied\n",
    ),
    # older runc's wording inside docker's OCI error (quotes escaped), and llama-swap's Go fork/exec of a model's cmd
    (
        "engine-binary-not-executable",
        "docker: Error response from daemon: OCI runtime create failed: container_linux.go:349: starting container "
        'process caused "exec: \\"/app/start.sh\\": permission denied": unknown.\n',
    ),
    (
        "engine-binary-not-executable",
        "[ERROR] <qwen3> failed to start command '/root/venv/bin/vllm serve /srv/q': fork/exec /root/venv/bin/vllm: "
        "permission denied\n",
    ),
    # runc's exec of a container command that is there (docker run --user 1000 on an image whose venv is /root's)
    (
        "engine-binary-not-executable",
        "exec /root/.venv/bin/vllm: permission denied\n",
    ),
]

NEAR_MISSES = [
    # a cache directory nobody may not create in, caused here: not the program
    (
        "engine-binary-not-executable",
        "Traceback (most recent call last):\n"
        '  File "<string>", line 1, in <module>\n'
        '  File "<frozen os>", line 215, in makedirs\n'
        "PermissionError: [Errno 13] Permission denied: '/tmp/after30d/ro/.cache'\n",
    ),
    # Python may not READ its script: the file's, not an executable's (path-permission-denied)
    (
        "engine-binary-not-executable",
        "python3: can't open file '/root/serve.py': [Errno 13] Permission denied\n",
    ),
    # a shell redirect to an unwritable log file, caused here (bash prints it like an exec)
    ("engine-binary-not-executable", "bash: line 1: /tmp/after30d/ro/vllm.log: Permission denied\n"),
    # a Popen(cwd=) the user may not enter, caused here: the directory, not a program
    (
        "engine-binary-not-executable",
        SUBPROCESS_FRAMES + "PermissionError: [Errno 13] Permission denied: '/tmp/after30d/priv'\n",
    ),
    # the same torch wording in a forward pass (no weight-loading frame) is not the checkpoint's shapes
    (
        "weights-shape-mismatch",
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/layers/rotary_embedding.py", line 160, '
        "in forward_native\n"
        "RuntimeError: The size of tensor a (128) must match the size of tensor b (64) at non-singleton dimension 3\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_an_unwritable_cache_stays_the_cache_family():
    """The real unwritable cache directory (caused here as nobody) is still cache-permission-denied, even with a
    subprocess frame elsewhere in the log."""
    assert_named(
        "cache-permission-denied",
        "Traceback (most recent call last):\n"
        '  File "<frozen os>", line 225, in makedirs\n'
        "PermissionError: [Errno 13] Permission denied: '/tmp/after30d/ro/.cache'\n",
    )


def test_an_adapter_shape_mismatch_stays_the_adapter_family():
    """A LoRA adapter's shape mismatch is the adapter's, even where the log shows the base model's loader frames."""
    assert_named(
        "lora-adapter-base-mismatch",
        WEIGHT_FRAMES
        + "ValueError: Call to add_lora method failed: Worker failed with error 'The size of tensor a "
        "(256) must match the size of tensor b (2048) at non-singleton dimension 1', please check the stack trace above "
        "for the root cause\n",
    )
