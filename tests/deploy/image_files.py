"""What deploy/Dockerfile puts in an image, read from the Dockerfile itself (no container engine runs here).

    stages = parse(DOCKERFILE)                       # {"base": Stage, "app": Stage, "proxy": Stage, ...}
    layout(stages, "app", context, root)             # the app image's own files under root/ (root/app/app.py ...)

A stage's files are its parent stages' COPY lines and its own, each source taken from the build context through
deploy/Dockerfile.dockerignore with Docker's rules: patterns match a path or any of its parent folders, `*` stops
at `/`, `**` crosses folders, `!` re-includes, and the last pattern that matches decides. `COPY --from=<stage>`
copies what a RUN line made, which only running that stage gives: the callers supply it (`built`).
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

REPO_ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = REPO_ROOT / "deploy" / "Dockerfile"
DOCKERIGNORE = REPO_ROOT / "deploy" / "Dockerfile.dockerignore"  # BuildKit reads <Dockerfile>.dockerignore


@dataclass(frozen=True)
class Copy:
    sources: tuple[str, ...]
    dest: str  # absolute, WORKDIR applied
    from_stage: str | None


@dataclass
class Stage:
    name: str
    parent: str  # an image name, or an earlier stage's name
    copies: list[Copy] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    workdir: str = "/"
    cmd: list[str] = field(default_factory=list)
    entrypoint: list[str] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)


def instructions(text: str) -> list[tuple[str, str]]:
    """(KEYWORD, arguments) per instruction: comments dropped, backslash continuations joined."""
    out, pending = [], ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if pending and line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = pending + line, ""
        keyword, _, rest = line.partition(" ")
        out.append((keyword.upper(), rest.strip()))
    return out


def _words(arguments: str) -> list[str]:
    return json.loads(arguments) if arguments.startswith("[") else shlex.split(arguments)


def parse(path: Path = DOCKERFILE) -> dict[str, Stage]:
    stages: dict[str, Stage] = {}
    stage: Stage | None = None
    for keyword, rest in instructions(path.read_text()):
        if keyword == "FROM":
            words = rest.split()
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else f"#{len(stages)}"
            parent = words[0]
            stage = Stage(name, parent)
            if parent in stages:  # FROM an earlier stage: its state carries on
                above = stages[parent]
                stage.env, stage.workdir, stage.cmd = dict(above.env), above.workdir, list(above.cmd)
                stage.entrypoint = list(above.entrypoint)
            stages[name] = stage
        elif stage is None:
            continue  # ARG before the first FROM
        elif keyword == "WORKDIR":
            stage.workdir = str(PurePosixPath(stage.workdir, rest))
        elif keyword == "ENV":
            for word in shlex.split(rest):
                key, _, value = word.partition("=")
                stage.env[key] = value
        elif keyword == "CMD":
            stage.cmd = _words(rest)
        elif keyword == "ENTRYPOINT":
            stage.entrypoint = _words(rest)
        elif keyword == "RUN":
            stage.runs.append(rest)
        elif keyword in ("COPY", "ADD"):
            words = _words(rest)
            flags = [w for w in words if w.startswith("--")]
            paths = [w for w in words if not w.startswith("--")]
            from_stage = next((f.split("=", 1)[1] for f in flags if f.startswith("--from=")), None)
            dest = str(PurePosixPath(stage.workdir, paths[-1])) + ("/" if paths[-1].endswith("/") else "")
            stage.copies.append(Copy(tuple(paths[:-1]), dest, from_stage))
    return stages


def chain(stages: dict[str, Stage], name: str) -> list[Stage]:
    """The stage and the stages it is built FROM, oldest first."""
    out = []
    while name in stages:
        out.insert(0, stages[name])
        name = stages[name].parent
    return out


# ---- .dockerignore, as Docker's patternmatcher reads it


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    out, i = "", 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif char == "*":
            out, i = out + "[^/]*", i + 1
        elif char == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(char), i + 1
    return re.compile(out + r"\Z")


def ignore_rules(path: Path = DOCKERIGNORE) -> list[tuple[bool, re.Pattern[str]]]:
    """(excludes, regex) per line; a `!` line re-includes."""
    rules = []
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keep = line.startswith("!")
        pattern = str(PurePosixPath(line.lstrip("!").strip()))
        rules.append((not keep, _pattern_regex(pattern.lstrip("/"))))
    return rules


def ignored(relative: str, rules: list[tuple[bool, re.Pattern[str]]]) -> bool:
    """Is this context path (a/b/c) left out of the build context? It or a parent folder matching decides."""
    parts = relative.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    verdict = False
    for excludes, regex in rules:
        if any(regex.match(prefix) for prefix in prefixes):
            verdict = excludes
    return verdict


def context_files(context: Path, rules: list[tuple[bool, re.Pattern[str]]]) -> list[str]:
    """Every file the build would send (relative paths), from a folder standing for the repository root."""
    return sorted(str(p.relative_to(context)) for p in context.rglob("*")
                  if p.is_file() and not ignored(str(p.relative_to(context)), rules))  # fmt: skip


def clone(destination: Path, repo: Path = REPO_ROOT) -> Path:
    """A fresh clone's files (what `git ls-files` tracks, as the working tree has them) under destination."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=repo, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = repo / name
        if source.is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / name)
    return destination


# ---- the image's files


def layout(stages: dict[str, Stage], name: str, context: Path, root: Path,
           built: dict[str, Path] | None = None) -> list[str]:
    """Put the files stage `name` COPYs (through its parents) under root; the image paths written, sorted.

    built: {stage name: a folder standing for that stage's filesystem root} for COPY --from.
    """
    rules = ignore_rules()
    sent = set(context_files(context, rules))
    written = []
    for stage in chain(stages, name):
        for copy in stage.copies:
            origin = (built or {}).get(copy.from_stage) if copy.from_stage else context
            if origin is None:
                raise KeyError(f"COPY --from={copy.from_stage}: pass what that stage built")
            for source in copy.sources:
                source = source.lstrip("/") if copy.from_stage else str(PurePosixPath(source))
                found = _sources(origin, source, sent if not copy.from_stage else None)
                if not found:
                    raise FileNotFoundError(f"COPY {source}: nothing in the build context (Dockerfile.dockerignore?)")
                many = len(copy.sources) > 1 or copy.dest.endswith("/")
                for relative, inside in found:
                    if inside is None:  # a file named as the source
                        target = PurePosixPath(copy.dest, PurePosixPath(relative).name) if many else copy.dest
                    else:  # a file inside a folder named as the source: the folder's contents go to dest
                        target = PurePosixPath(copy.dest, inside)
                    path = root / str(target).lstrip("/")
                    path.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(origin / relative, path)
                    written.append(str(target))
    return sorted(set(written))


def _sources(origin: Path, source: str, sent: set[str] | None) -> list[tuple[str, str | None]]:
    """(path in origin, path inside the named folder or None) for one COPY source."""
    base = origin / source
    if base.is_file():
        return [(source, None)] if sent is None or source in sent else []
    if not base.is_dir():
        return []
    out = []
    for path in sorted(base.rglob("*")):
        if path.is_file():
            relative = str(path.relative_to(origin))
            if sent is None or relative in sent:
                out.append((relative, str(path.relative_to(base))))
    return out
