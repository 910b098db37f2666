"""A named data file is read only when it is a regular file of bounded size: a FIFO, a device or
a directory is one DataError at once (never a hang, never all of memory)."""

from __future__ import annotations

import os

import pytest

from meeple.core.datafile import read_data_text
from meeple.core.errors import DataError
from tests.core.test_fuzz_loaders import no_hang


def test_a_regular_file_is_read_as_utf8(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text('provenance = "printed"  # é\n', encoding="utf-8")
    assert read_data_text(path, "the board") == 'provenance = "printed"  # é\n'


def test_a_fifo_with_no_writer_is_refused_at_once(tmp_path):
    fifo = tmp_path / "board.fifo"
    os.mkfifo(fifo)
    with no_hang(5), pytest.raises(DataError, match=r"^the board is a pipe \(FIFO\), not a regular file$"):
        read_data_text(fifo, "the board")


def test_dev_zero_is_refused_without_reading_it():
    with no_hang(5), pytest.raises(DataError, match=r"^the board is a device, not a regular file$"):
        read_data_text("/dev/zero", "the board")


def test_a_directory_a_missing_file_a_large_file_and_bytes_not_utf8_are_refused(tmp_path):
    with pytest.raises(DataError, match=r"^the board is a directory, not a regular file$"):
        read_data_text(tmp_path, "the board")
    with pytest.raises(DataError, match=r"^cannot read the board: No such file or directory$"):
        read_data_text(tmp_path / "absent.toml", "the board")
    large = tmp_path / "large.toml"
    large.write_bytes(b"#" * 101)
    with pytest.raises(DataError, match=r"^the board is larger than 100 bytes$"):
        read_data_text(large, "the board", max_bytes=100)
    assert read_data_text(large, "the board", max_bytes=101) == "#" * 101
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"ok\xff")
    with pytest.raises(DataError, match=r"^the board is not UTF-8 text \(byte 2\)$"):
        read_data_text(binary, "the board")
