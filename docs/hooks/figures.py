"""MkDocs hook: the papers' figures made afresh by ``docs/scripts/plot_*.py`` on every build, so that no page shows a
figure older than the code. No figure is kept in the repository.

Each script has ``main(folder) -> [written PNG files]``; the files go to ``build/figures/`` and into the site as
``figures/<name>.png`` (the pages link ``../figures/<name>.png``). ``mkdocs serve`` makes them once per run, not at
every rebuild: the figures follow the package's code, not the pages' text.
"""

import importlib.util
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "docs" / "scripts"
FIGURES = ROOT / "build" / "figures"
_made: list[Path] = []


def _make_figures() -> list[Path]:
    made = []
    for script in sorted(SCRIPTS.glob("plot_*.py")):
        spec = importlib.util.spec_from_file_location(f"ldpspec_docs_{script.stem}", script)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        made += module.main(FIGURES)
    return made


def on_files(files, config):
    if not _made:
        _made.extend(_make_figures())
    for path in _made:
        files.append(File.generated(config, f"figures/{path.name}", abs_src_path=str(path)))
    return files
