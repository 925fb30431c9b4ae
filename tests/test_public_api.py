"""The public surface: ``govmem.__all__`` is exactly what the package exports."""

from __future__ import annotations

import importlib
import inspect
import types

import pytest

import govmem
import govmem.errors

SUBPACKAGES = [
    "govmem.api",
    "govmem.designs",
    "govmem.governance",
    "govmem.governance.forgetting",
    "govmem.loaders",
    "govmem.read_path",
    "govmem.retrieval",
    "govmem.store",
]


def test_all_names_exist_and_are_unique() -> None:
    assert len(govmem.__all__) == len(set(govmem.__all__))
    assert govmem.__all__ == sorted(govmem.__all__)
    for name in govmem.__all__:
        assert getattr(govmem, name) is not None, name


def test_every_public_name_is_exported() -> None:
    public = {
        name
        for name, value in vars(govmem).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    assert public == set(govmem.__all__)


def test_star_import_gives_exactly_all() -> None:
    namespace: dict = {}
    exec("from govmem import *", namespace)
    namespace.pop("__builtins__")
    assert set(namespace) == set(govmem.__all__)


def test_every_error_is_exported() -> None:
    errors = {
        name
        for name, value in vars(govmem.errors).items()
        if inspect.isclass(value) and issubclass(value, Exception) and value.__module__ == "govmem.errors"
    }
    assert errors <= set(govmem.__all__)
    for name in errors:
        assert issubclass(getattr(govmem, name), govmem.GovmemError)


def test_error_hierarchy() -> None:
    assert issubclass(govmem.LoadError, govmem.InputError)
    assert issubclass(govmem.UnknownPrincipal, govmem.InputError)
    assert issubclass(govmem.DuplicateTurn, govmem.InputError)
    assert issubclass(govmem.InputError, ValueError)
    assert issubclass(govmem.UnknownPrincipal, LookupError)
    assert issubclass(govmem.SchemaError, govmem.StoreError)
    assert issubclass(govmem.EmbedderError, govmem.GovmemError)
    assert str(govmem.LoadError("f.jsonl", 3, "bad")) == "f.jsonl:3: bad"
    assert str(govmem.LoadError("f.jsonl", None, "bad")) == "f.jsonl: bad"


def test_version_matches_the_distribution() -> None:
    from importlib.metadata import version

    assert govmem.__version__ == version("govmem")


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_subpackage_all_names_exist(name: str) -> None:
    module = importlib.import_module(name)
    assert len(module.__all__) == len(set(module.__all__))
    for attribute in module.__all__:
        assert hasattr(module, attribute), f"{name}.{attribute}"
