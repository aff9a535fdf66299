"""``python -m sicbo.bench --only``: which parts of the benchmarks a command line runs."""

import pytest

from sicbo.bench.__main__ import PARTS, _parts


def test_every_part_but_the_large_ones_by_default() -> None:
    assert _parts([]) == set(PARTS) - {"large"}
    assert _parts(["--large"]) == set(PARTS)


def test_only_the_parts_named() -> None:
    assert _parts(["--only", "settle,gateway"]) == {"settle", "gateway"}
    assert _parts(["--only", "load", "--large"]) == {"load", "large"}


def test_replay_runs_the_floor_whose_log_it_verifies() -> None:
    assert _parts(["--only", "replay"]) == {"replay", "floor"}


def test_an_unknown_part_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        _parts(["--only", "settle,replya"])
    assert exit_.value.code == 2
    assert "no such part: replya" in capsys.readouterr().err
