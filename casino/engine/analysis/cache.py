"""On-disk cache of the paytable-independent tables, keyed by the rules version and the analysis source."""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from casino.engine.analysis.classes import ClassTables, build_class_tables
from casino.engine.analysis.deals import HAND, DealTables, Int32Array, Level, build_deal_tables
from casino.engine.analysis.optimal import hold_preferences

# Bump when the meaning of a pay class changes; the source digest below catches code edits as well.
RULES_VERSION = "1"
_SOURCES = ("pay_classes.py", "analysis/deals.py", "analysis/classes.py", "analysis/optimal.py")
_ENGINE = Path(__file__).resolve().parents[1]
# A missing, truncated or foreign cache file is rebuilt, never trusted.
_UNREADABLE = (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile)


def rules_key() -> str:
    digest = hashlib.sha256(RULES_VERSION.encode())
    for name in _SOURCES:
        digest.update((_ENGINE / name).read_bytes())
    return f"v{RULES_VERSION}-{digest.hexdigest()[:12]}"


def default_cache_dir() -> Path:
    """$CASINO_CACHE_DIR, else `.cache/analysis` in the project (git-ignored)."""
    configured = os.environ.get("CASINO_CACHE_DIR")
    return Path(configured) if configured else _ENGINE.parents[1] / ".cache" / "analysis"


# In-process memo (a worker analyses many paytables): (cache root, file stem) -> tables.
_DEALS: dict[tuple[str, str], tuple[DealTables, Int32Array]] = {}
_CLASSES: dict[tuple[str, str], ClassTables] = {}


def clear_memory() -> None:
    """Forget the in-process tables (the disk cache stays)."""
    _DEALS.clear()
    _CLASSES.clear()


def deal_tables(cache_dir: Path | None) -> tuple[DealTables, Int32Array]:
    """The suit-class tables and hold preferences: from memory, else the disk cache, else built (and stored)."""
    root = cache_dir or default_cache_dir()
    key = rules_key()
    memo = _DEALS.get((str(root), key))
    if memo is not None:
        return memo
    path = root / f"deals-{key}.npz"
    bundle = _load_deals(path)
    if bundle is None:
        tables = build_deal_tables()
        bundle = (tables, hold_preferences(tables.deals))
        _save(path, _deal_arrays(tables))
        _forget_other_versions(root, key)
    _DEALS[(str(root), key)] = bundle
    return bundle


def class_tables(tables: DealTables, wild_ranks: Iterable[int], cache_dir: Path | None) -> ClassTables:
    """The pay-class count tables for one set of wild ranks, cached like the deal tables."""
    wild = tuple(sorted(set(wild_ranks)))
    root = cache_dir or default_cache_dir()
    name = f"classes-{rules_key()}-wild-{'-'.join(map(str, wild)) or 'none'}"
    memo = _CLASSES.get((str(root), name))
    if memo is not None:
        return memo
    path = root / f"{name}.npz"
    loaded = _load_classes(path, wild)
    if loaded is None:
        loaded = build_class_tables(tables, wild)
        codes, pairs, quads = loaded.class_arrays()
        _save(
            path,
            {
                "deal_class": loaded.deal_class,
                "counts": loaded.counts.astype(np.int32),
                "codes": codes,
                "pairs": pairs,
                "quads": quads,
            },
        )
    _CLASSES[(str(root), name)] = loaded
    return loaded


def _deal_arrays(tables: DealTables) -> dict[str, np.ndarray]:
    arrays: dict[str, np.ndarray] = {
        "subset_ids": tables.subset_ids,
        "offsets": np.array(tables.offsets),
    }
    for size, level in enumerate(tables.levels):
        arrays[f"keys{size}"] = level.keys
        arrays[f"reps{size}"] = level.reps
        arrays[f"weights{size}"] = level.weights
        if level.extensions is not None:
            arrays[f"extensions{size}"] = level.extensions
    return arrays


def _load_deals(path: Path) -> tuple[DealTables, Int32Array] | None:
    try:
        with np.load(path) as data:
            levels = tuple(
                Level(
                    data[f"keys{size}"],
                    data[f"reps{size}"],
                    data[f"weights{size}"],
                    data[f"extensions{size}"] if size < HAND else None,
                )
                for size in range(HAND + 1)
            )
            tables = DealTables(levels, tuple(int(x) for x in data["offsets"]), data["subset_ids"])
            return tables, hold_preferences(tables.deals)  # cheaper to recompute than to read
    except _UNREADABLE:
        return None


def _load_classes(path: Path, wild: tuple[int, ...]) -> ClassTables | None:
    try:
        with np.load(path) as data:
            classes = ClassTables.classes_from_arrays(data["codes"], data["pairs"], data["quads"])
            return ClassTables(wild, classes, data["deal_class"], data["counts"].astype(np.float64))
    except _UNREADABLE:
        return None


def _forget_other_versions(root: Path, key: str) -> None:
    """Remove cache files of other rules versions (they are never read again)."""
    for stale in [*root.glob("deals-v*.npz"), *root.glob("classes-v*.npz")]:
        if key not in stale.name:
            stale.unlink(missing_ok=True)


def _save(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write atomically (a temporary file renamed into place), so concurrent workers never read half a file;
    a cache that cannot be written only costs the rebuild next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(handle, "wb") as stream:
            np.savez(stream, allow_pickle=False, **arrays)
        os.chmod(temporary, 0o644)  # readable by the web server and the workers alike
        os.replace(temporary, path)
    except OSError:
        return
