"""Each subpackage says what it owns and what it may import (its docstring, per the wings of
docs/architecture.md), and its public face (`__all__`) names only what it holds."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import kamicp

# every subpackage of kamicp: the wings and their parts (found, so a new one cannot be forgotten)
PACKAGES = sorted(m.name for m in pkgutil.walk_packages(kamicp.__path__, "kamicp.") if m.ispkg)


@pytest.mark.parametrize("name", PACKAGES)
def test_a_subpackage_says_what_it_may_import(name):
    package = importlib.import_module(name)
    assert "may import" in " ".join((package.__doc__ or "").lower().split()), name


@pytest.mark.parametrize("name", PACKAGES)
def test_the_public_face_names_only_what_the_package_holds(name):
    package = importlib.import_module(name)
    assert package.__all__ and len(set(package.__all__)) == len(package.__all__)
    for public in package.__all__:
        assert not public.startswith("_")
        if not hasattr(package, public):  # a module of the package (play's, loaded on use)
            importlib.import_module(f"{name}.{public}")
