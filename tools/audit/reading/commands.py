"""Launch and benchmark command lines read exactly: shell words, flags, values, the tool that runs them.

``parse_commands`` walks the code blocks of a write-up and splits them into commands the way a shell
would (quotes, backslash-newline continuations, ``;``/``&&``/``|`` separators, ``#`` comments,
``VAR=value`` prefixes and ``export``), strips wrappers (``sudo``, ``nohup``, ``CUDA_VISIBLE_DEVICES=..``,
``python -m``, ``torchrun``, ``docker run [options] IMAGE``), and names the tool from the table in
``tools/audit/data/commands.json``: ``vllm serve``, ``vllm bench serve``/``benchmark_serving.py``,
``sglang.launch_server``, ``sglang.bench_serving``, ``trtllm-serve``, ``trtllm-bench``, ``genai-perf``,
``aiperf``, ``guidellm``, LLMPerf, the TGI launcher and ``text-generation-benchmark``, llama.cpp.

Flags are matched as the tool's own parser matches them: ``--max_model_len`` is ``--max-model-len``,
and for argparse tools an unambiguous prefix (``--random-input``, ``--num-prompt``, ``--tensor``)
names the full flag. Each flag carries the contract item it states and where it was written.
Shell variables defined earlier in the document (``MODEL=org/name``) are substituted; a value that
stays a variable or a placeholder states nothing.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

__all__ = ["Command", "Flag", "command_table", "parse_commands", "parse_yaml_config"]

_WRAPPERS = {"sudo", "nohup", "time", "exec", "env", "uv", "poetry", "pipenv", "conda", "srun", "stdbuf"}
_DOCKER_VALUE_OPTS = {"-p", "--publish", "-v", "--volume", "-e", "--env", "--name", "--gpus", "--shm-size", "--ipc", "--network",
                      "--net", "--ulimit", "--runtime", "--entrypoint", "-w", "--workdir", "--device", "--group-add", "--security-opt",
                      "--cap-add", "--mount", "--env-file", "--cpus", "--memory", "-m", "--user", "-u", "--platform", "--label", "-l",
                      "--hostname", "-h", "--add-host", "--restart", "--pid", "--userns", "--tmpfs", "--log-driver", "--cgroupns"}
_VAR = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
_ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.S)


@dataclass
class Flag:
    """One flag of a command: its name in the tool's table, its value, and where it was written."""

    name: str
    written: str
    value: str | None
    item: str | None
    offset: int  # offset of the flag in the block text
    resolved: bool = True  # False when the value is still a shell variable or a placeholder


@dataclass
class Command:
    """A command line: the tool it runs, its flags and positionals, and its place in the document."""

    tool: str | None
    role: str
    engine: str | None
    block: int
    start: int  # offset of the command's first word in the block text
    words: list[str]
    flags: list[Flag] = field(default_factory=list)
    positionals: list[tuple[str, int]] = field(default_factory=list)
    image: str | None = None
    env: dict[str, tuple[str, int]] = field(default_factory=dict)

    def values(self, item: str) -> list[Flag]:
        """The flags that state ``item``, with a usable value (or switches)."""
        return [f for f in self.flags if f.item == item and f.resolved]


@functools.cache
def command_table() -> dict[str, Any]:
    """The tool and flag table (tools/audit/data/commands.json)."""
    return json.loads((files(__package__).parent / "data" / "commands.json").read_text(encoding="utf-8"))


def _norm(flag: str) -> str:
    return flag.replace("_", "-").lower()


@functools.cache
def _flag_index(tool: str) -> dict[str, tuple[str, dict]]:
    flags = command_table()["tools"][tool]["flags"]
    return {_norm(name): (name, spec) for name, spec in flags.items()}


def _lookup(tool: str | None, written: str) -> tuple[str, dict | None]:
    if tool is None:
        return written, None
    index = _flag_index(tool)
    key = _norm(written)
    if key in index:
        return index[key]
    if command_table()["tools"][tool].get("prefix_match") and key.startswith("--") and len(key) > 4:
        found = [v for k, v in index.items() if k.startswith(key)]
        if len(found) == 1:
            return found[0]
    return written, None


# ------------------------------------------------------------------ shell words
# Characters ``_words`` handles one by one; runs of any others are taken whole (``word`` holds pieces, not only
# single characters: its last piece ends with the word's last character).
_PLAIN = re.compile(r"[^'\"\\#\n;&| \t\r]+")
_QUOTED = {"'": re.compile(r"[^']+"), '"': re.compile(r'[^"\\]+')}


def _words(text: str, base: int) -> list[list[tuple[str, int]]]:
    """Commands of a shell text as lists of (word, offset); quotes removed, continuations joined."""
    commands: list[list[tuple[str, int]]] = []
    words: list[tuple[str, int]] = []
    word: list[str] = []
    start = -1
    quote = ""
    k, n = 0, len(text)

    def close() -> None:
        nonlocal word, start
        if start >= 0:
            words.append(("".join(word), base + start))
        word, start = [], -1

    def end_command() -> None:
        nonlocal words
        close()
        if words:
            commands.append(words)
        words = []

    while k < n:
        c = text[k]
        if quote:
            if c == quote:
                quote = ""
            elif c == "\\" and quote == '"' and k + 1 < n and text[k + 1] in '"\\$`':
                word.append(text[k + 1])
                k += 1
            else:
                run = _QUOTED[quote].match(text, k)  # the quoted characters up to the next quote or backslash, at once
                word.append(run.group() if run else c)
                k = run.end() - 1 if run else k
            k += 1
            continue
        if c == "\\" and k + 1 < n and text[k + 1] in "\r\n":  # line continuation
            k += 2 if text[k + 1:k + 3] != "\r\n" else 3
            continue
        if c in "'\"":
            quote = c
            if start < 0:
                start = k
            k += 1
            continue
        if c == "#" and start < 0:  # a comment runs to the end of the line
            nl = text.find("\n", k)
            k = n if nl < 0 else nl
            continue
        if c == "\n" or c == ";" or (c in "&|" and not (start >= 0 and word and word[-1].endswith("="))):
            if c in "&|" and k + 1 < n and text[k + 1] == c:
                k += 1
            end_command()
            k += 1
            continue
        if c in " \t\r":
            close()
            k += 1
            continue
        if c == "\\" and k + 1 < n and text[k + 1] in " \t":  # "\ " mid-line: a pasted continuation
            close()
            k += 2
            continue
        if c == "\\" and k + 1 < n:
            word.append(text[k + 1])
            if start < 0:
                start = k
            k += 2
            continue
        if start < 0:
            start = k
        run = _PLAIN.match(text, k)  # the word's ordinary characters up to the next one the loop must look at, at once
        word.append(run.group() if run else c)  # ('#', '&' and '|' are ordinary here, one at a time)
        k = run.end() if run else k + 1
    end_command()
    return commands


# ------------------------------------------------------------------ tools
@functools.cache
def _entries() -> list[tuple[tuple[str, ...], str]]:
    out = []
    for tool, spec in command_table()["tools"].items():
        for entry in spec["entries"]:
            out.append((tuple(entry.split()), tool))
    return sorted(out, key=lambda e: -len(e[0]))


@functools.cache
def _first_words() -> frozenset[str]:
    """The words a command table entry can start with (an entry written './tool' also as 'tool')."""
    return frozenset(w for entry, _ in _entries() for w in (entry[0], entry[0][2:] if entry[0].startswith("./") else entry[0]))


def _is_python(word: str) -> bool:
    return bool(re.fullmatch(r"(?:\S*/)?python(?:3(?:\.\d+)?)?", word))


def _match_entry(words: list[str]) -> tuple[str | None, int]:
    """(tool, number of words the entry takes) for a command with its wrappers stripped."""
    if not words:
        return None, 0
    first = words[0].rsplit("/", 1)[-1] if words[0].startswith((".", "/")) else words[0]
    norm = [first] + words[1:]
    python = _is_python(norm[0])  # once per command, not once per python entry of the table
    if not python and norm[0] not in _first_words():
        return None, 0  # no entry can match: most lines of a code block are no tool's command
    for entry, tool in _entries():
        if entry[0] == "python":
            if not python:
                continue
            if entry[1] == "-m":
                if len(norm) >= 3 and norm[1] == "-m" and norm[2] == entry[2] and tuple(norm[3:len(entry)]) == entry[3:]:
                    return tool, len(entry)
            elif len(norm) >= 2 and norm[1].rsplit("/", 1)[-1] == entry[1]:
                return tool, 2
            continue
        if tuple(norm[:len(entry)]) == entry or (entry[0].startswith("./") and norm[0] == entry[0][2:] and tuple(norm[1:len(entry)]) == entry[1:]):
            return tool, len(entry)
    return None, 0


def _strip_wrappers(words: list[tuple[str, int]], env: dict[str, tuple[str, int]]) -> list[tuple[str, int]]:
    k = 0
    while k < len(words):
        w = words[k][0]
        m = _ASSIGN.match(w)
        if w in ("$", ">", "%", "#") and k == 0:  # a shell prompt
            k += 1
        elif m and k + 1 < len(words):
            env[m.group(1)] = (m.group(2), words[k][1])
            k += 1
        elif w in _WRAPPERS or (w == "run" and k > 0 and words[k - 1][0] in ("uv", "poetry", "pipenv", "conda")):
            k += 1
        elif w in ("torchrun", "accelerate", "deepspeed", "mpirun", "numactl"):
            # skip the launcher's own options up to the program
            k += 1
            while k < len(words) and (words[k][0].startswith("-") or words[k][0] == "launch" or re.fullmatch(r"\d+", words[k][0])):
                k += 1
        else:
            break
    return words[k:]


def _docker(words: list[tuple[str, int]], env: dict[str, tuple[str, int]]) -> tuple[str | None, list[tuple[str, int]]]:
    """(image, the words after it) for ``docker run``; ``-e KEY=VAL`` goes to ``env``."""
    k = 2
    while k < len(words):
        w = words[k][0]
        if w.startswith("-"):
            name = w.split("=", 1)[0]
            value = w.split("=", 1)[1] if "=" in w else None
            if name in _DOCKER_VALUE_OPTS and value is None:
                value = words[k + 1][0] if k + 1 < len(words) else None
                k += 1
            if name in ("-e", "--env") and value and "=" in value:
                key, val = value.split("=", 1)
                env[key] = (val, words[k][1])
            k += 1
            continue
        return w, words[k + 1:]
    return None, []


def _image_tool(image: str) -> str | None:
    name = image.split("@", 1)[0].rsplit(":", 1)[0] if ":" in image.split("/")[-1] or "@" in image else image
    images = command_table()["images"]["engines"]
    for key, tool in images.items():
        if name == key or name.endswith("/" + key) or name.endswith(key):
            return tool
    return None


def _substitute(word: str, env: dict[str, tuple[str, int]]) -> tuple[str, bool]:
    """``word`` with known shell variables replaced; False when a variable stays unresolved."""
    if "$" not in word:
        return word, True
    ok = True

    def one(m: re.Match[str]) -> str:
        nonlocal ok
        if m.group(1) in env:
            return env[m.group(1)][0]
        ok = False
        return m.group(0)
    return _VAR.sub(one, word), ok


_PLACEHOLDER_VALUE = re.compile(r"^<[^>]*>$|^\.\.\.$|^(?:TBD|TODO|XXX)$|^\s*$", re.I)


def _command(words: list[tuple[str, int]], block: int, env: dict[str, tuple[str, int]]) -> Command | None:
    local_env: dict[str, tuple[str, int]] = {}
    words = _strip_wrappers(words, local_env)
    if not words:
        env.update(local_env)
        return None
    if words[0][0] == "export":
        for w, off in words[1:]:
            m = _ASSIGN.match(w)
            if m:
                env[m.group(1)] = (m.group(2), off)
        return None
    if len(words) == 1 and _ASSIGN.match(words[0][0]):
        m = _ASSIGN.match(words[0][0])
        env[m.group(1)] = (m.group(2), words[0][1])
        return None
    image = None
    merged = {**env, **local_env}
    if words[0][0] == "docker" and len(words) > 1 and words[1][0] in ("run", "create"):
        image, rest = _docker(words, local_env)
        merged = {**env, **local_env}
        tool = _image_tool(image) if image else None
        inner = _strip_wrappers(rest, local_env)
        inner_tool, used = _match_entry([w for w, _ in inner])
        if inner_tool:
            tool, rest = inner_tool, inner[used:]
        start = words[0][1]
        return _build(tool, rest, block, start, merged, image, [w for w, _ in words])
    tool, used = _match_entry([w for w, _ in words])
    if tool is None:
        return None
    return _build(tool, words[used:], block, words[0][1], merged, None, [w for w, _ in words])


def _build(tool: str | None, args: list[tuple[str, int]], block: int, start: int, env: dict[str, tuple[str, int]],
           image: str | None, words: list[str]) -> Command:
    spec = command_table()["tools"].get(tool, {}) if tool else {}
    cmd = Command(tool=tool, role=spec.get("role", "other"), engine=spec.get("engine"), block=block, start=start,
                  words=words, image=image, env=env)
    k = 0
    while k < len(args):
        word, off = args[k]
        if word.startswith("-") and len(word) > 1 and not re.fullmatch(r"-\d+(?:\.\d+)?", word):
            written, value = (word.split("=", 1) + [None])[:2] if "=" in word else (word, None)
            name, meta = _lookup(tool, written)
            switch = bool(meta and meta.get("switch"))
            if value is None and not switch:
                values = []
                while k + 1 < len(args) and not (args[k + 1][0].startswith("-") and not re.fullmatch(r"-\d+(?:\.\d+)?", args[k + 1][0])):
                    values.append(args[k + 1][0])
                    k += 1
                    if not (meta and meta.get("nargs") == "+"):
                        break
                value = " ".join(values) if values else None
            if switch:
                value = meta.get("value", "true") if value is None else value
            resolved = True
            if value is not None:
                value, resolved = _substitute(value, env)
                resolved = resolved and not _PLACEHOLDER_VALUE.match(value)
            cmd.flags.append(Flag(name=name, written=written, value=value, item=meta.get("item") if meta else None,
                                  offset=off, resolved=resolved))
        else:
            value, resolved = _substitute(word, env)
            cmd.positionals.append((value, off))
            if spec.get("positional") and len(cmd.positionals) == 1 and resolved and not _PLACEHOLDER_VALUE.match(value):
                cmd.flags.append(Flag(name="(model)", written=word, value=value, item=spec["positional"], offset=off))
        k += 1
    for key, (value, off) in env.items():
        item = command_table().get("env", {}).get(key)
        if item:
            cmd.flags.append(Flag(name=key, written=key, value=value, item=item, offset=off))
    return cmd


def parse_commands(blocks: list[tuple[int, str]], offsets: list[int] | None = None) -> list[Command]:
    """Every recognised command in ``blocks`` ((block index, text) of code blocks or inline code, in document
    order); ``offsets`` gives where each text starts in its block (0 for a whole code block)."""
    env: dict[str, tuple[str, int]] = {}
    out: list[Command] = []
    for k, (index, text) in enumerate(blocks):
        if len(text) > 200_000:
            text = text[:200_000]
        for words in _words(text, offsets[k] if offsets else 0):
            cmd = _command(words, index, env)
            if cmd is not None:
                out.append(cmd)
    return out


def parse_yaml_config(text: str) -> dict[str, Any] | None:
    """A YAML or JSON mapping from a code block, or None (used for inference-perf and engine configs)."""
    if len(text) > 100_000 or ":" not in text:
        return None
    import yaml

    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError, ValueError):
        return None
    return data if isinstance(data, dict) else None
