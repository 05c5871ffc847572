"""The filter corpus's loader (``bench/corpus/filters/corpus.py``), imported once for the tests."""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

LOADER = Path(__file__).resolve().parents[2] / "bench" / "corpus" / "filters" / "corpus.py"


@functools.lru_cache(maxsize=1)
def corpus() -> ModuleType:
    """The loader module: its outputs, answer keys and halves."""
    spec = importlib.util.spec_from_file_location("filter_corpus_loader", LOADER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
