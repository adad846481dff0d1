"""tests/helpers.read_line: a line the stream already buffered is returned at once."""

from __future__ import annotations

import subprocess

import pytest
from helpers import read_line


def test_a_second_line_read_with_the_first_is_not_waited_for() -> None:
    """A child that writes two lines together: the first readline takes both from the pipe, and the
    second line must come from the buffer (before the fix, select() on the empty pipe timed out)."""
    child = subprocess.Popen(["sh", "-c", "printf 'one\\ntwo\\n'; read _"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    try:
        assert read_line(child.stdout, 10) == b"one\n"
        assert read_line(child.stdout, 0.5) == b"two\n"
        with pytest.raises(AssertionError, match="no output within 0.2 s"):
            read_line(child.stdout, 0.2)  # nothing more: the timeout still holds
    finally:
        child.communicate(b"\n", timeout=10)


def test_a_line_written_in_two_parts_is_read_whole() -> None:
    child = subprocess.Popen(["sh", "-c", "printf 'thr'; sleep 0.3; printf 'ee\\n'"], stdout=subprocess.PIPE)
    try:
        assert read_line(child.stdout, 10) == b"three\n"
    finally:
        child.wait(timeout=10)
