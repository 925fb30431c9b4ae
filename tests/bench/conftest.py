"""Fixtures of the benchmark tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from forgetting_helpers import write_tiny


@pytest.fixture(scope="session")
def tiny_forgetting_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny generated forgetting data set (2 episodes x 300 turns, 4 facts each); read only."""
    return write_tiny(tmp_path_factory.mktemp("forgetting-data"))
