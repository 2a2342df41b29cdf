"""The README's commands: the docs' front page gives the same two, and every porter command runs as written."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def ci_command(name: str) -> str:
    """The command of the block after ``<!-- ci: NAME -->``, as ``.ci/run`` reads it."""
    match = re.search(rf"<!-- ci: {name} -->\n```bash\n(.*?)\n```", README, re.DOTALL)
    assert match, name
    return match.group(1).strip()


def test_the_docs_front_page_gives_the_readmes_two_commands():
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    for name in ("audit", "tests"):
        assert ci_command(name) in index, name


def test_every_porter_command_of_the_readme_runs(tmp_path):
    block = re.search(r"## For porters.*?```bash\n(.*?)\n```", README, re.DOTALL).group(1)
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    environment = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}"}
    commands = [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]
    assert len(commands) >= 6
    for command in commands:
        assert shlex.split(command)[0] == "ldpspec", command
        run = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=environment, capture_output=True, text=True,
                             timeout=600)
        assert run.returncode == 0, (command, run.stderr)
        assert len(run.stdout) < 10_000, (command, len(run.stdout))  # answers sized for a person
    assert (tmp_path / "deployment.json").is_file() and (tmp_path / "idue-ps.json").is_file()


def test_the_auditors_command_of_the_readme_runs():
    """The README's ``ldpspec refute`` example, from the repository's root: the biased client is refuted (exit 1)."""
    block = re.search(r"## For auditors of an implementation.*?```bash\n(.*?)\n```", README, re.DOTALL).group(1)
    command = block.split("  #")[0].replace("\\\n", " ").strip()
    assert shlex.split(command)[:2] == ["ldpspec", "refute"]
    environment = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}"}
    run = subprocess.run(["bash", "-c", command], cwd=ROOT, env=environment, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 1, run.stderr
    assert '"verdict": "violated"' in run.stdout and len(run.stdout) < 20_000
