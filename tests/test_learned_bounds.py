"""Learned players' files and learning checkpoints are checked before any array is read: members, declared dtypes
and shapes, inflated sizes, the header's size and depth, the table's length; each problem is one line (exit 2 on
the command line), and nothing large is allocated on the way (issue 32, item 3)."""

from __future__ import annotations

import io
import json
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest

from gpquarto.learned.models import NTupleModel, default_encoder
from gpquarto.learned.npz import MAX_ARRAY_BYTES, MAX_MEMBERS
from gpquarto.learned.storage import (
    MAX_HEADER_BYTES,
    MAX_TABLE_ENTRIES,
    learned_data,
    load_learned_player,
    npz_bytes,
    read_learned_file,
)
from gpquarto.learning import LearnConfig, learn, open_learn_run
from gpquarto.learning.run import LearnRunError, resume
from tests.conftest import run_cli


def npy(descr: str, shape: tuple[int, ...], data: bytes) -> bytes:
    """An .npy member declaring ``descr`` and ``shape`` (whatever ``data`` really holds)."""
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": descr, "fortran_order": False, "shape": shape})
    return buffer.getvalue() + data


def header_member(header: object) -> bytes:
    raw = json.dumps(header).encode() if not isinstance(header, bytes) else header
    return npy("|u1", (len(raw),), raw)


def zip_of(path, members: dict[str, bytes | tuple[bytes, int]]) -> str:
    """A zip of ``members`` (deflated); a ``(prefix, zeros)`` member is ``prefix`` then that many zero bytes,
    written in blocks."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            if isinstance(content, bytes):
                archive.writestr(name, content)
                continue
            prefix, zeros = content
            with archive.open(name, "w", force_zip64=True) as stream:
                stream.write(prefix)
                block = bytes(1 << 20)
                while zeros > 0:
                    stream.write(block[: min(zeros, len(block))])
                    zeros -= len(block)
    return str(path)


@pytest.fixture
def quarto_header():
    model = NTupleModel(default_encoder("quarto", {"rules": "classic"}))
    header, arrays = learned_data(model, game="quarto", settings={"rules": "classic"}, method="td-ntuple")
    return header, arrays


def refused(path: str, *expected: str) -> str:
    """Loading ``path`` is a one-line ValueError naming it and saying each of ``expected``; peak memory stays small."""
    tracemalloc.start()
    try:
        with pytest.raises(ValueError) as error:
            load_learned_player(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(error.value)
    assert "\n" not in message and path in message, message
    for text in expected:
        assert text in message, message
    assert peak < 20_000_000, f"{peak:,} bytes allocated to refuse {path}"
    return message


def test_a_member_that_inflates_past_the_cap_is_refused_unread(tmp_path, quarto_header):
    header, _ = quarto_header
    size = MAX_ARRAY_BYTES + 8_000_000
    path = zip_of(
        tmp_path / "bomb.npz",
        {"header.npy": header_member(header), "weights.npy": (npy("<f8", (size // 8,), b""), size)},
    )
    refused(path, "inflates to")


def test_a_declared_shape_of_10_to_the_11_is_refused_without_allocating(tmp_path, quarto_header):
    header, _ = quarto_header
    path = zip_of(
        tmp_path / "huge.npz", {"header.npy": header_member(header), "weights.npy": npy("<f8", (10**11,), bytes(80))}
    )
    refused(path, "declares 800,000,000,000 bytes")
    shaped = zip_of(
        tmp_path / "shaped.npz",
        {"header.npy": header_member(header), "weights.npy": npy("<f8", (10**6,), bytes(8 * 10**6))},
    )
    refused(shaped, "'weights' must be 540 float64 numbers, got float64 (1000000,)")


def test_a_deeply_nested_header_is_one_line(tmp_path):
    deep = b"[" * 200_000 + b"]" * 200_000
    path = zip_of(tmp_path / "deep.npz", {"header.npy": header_member(deep)})
    refused(path, "nests more than 64 levels deep")
    deeper = json.dumps(json.loads("[" * 100 + "]" * 100))  # parses, but is too deep to walk
    path = zip_of(tmp_path / "deep2.npz", {"header.npy": header_member(deeper.encode())})
    refused(path, "nests more than 64 levels deep")


def test_a_header_over_its_cap_and_too_many_members_are_refused(tmp_path, quarto_header):
    header, _ = quarto_header
    big = {**header, "name": "x" * (MAX_HEADER_BYTES + 1)}
    refused(zip_of(tmp_path / "big.npz", {"header.npy": header_member(big)}), "more than 1,000,000")
    many = {f"a{index}.npy": npy("<f8", (1,), bytes(8)) for index in range(5000)}
    refused(zip_of(tmp_path / "many.npz", many), f"5,000 members, more than {MAX_MEMBERS}")


@pytest.mark.parametrize(
    ("member", "message"),
    [
        (npy("|O", (3,), b""), "Python objects"),
        (npy("<c16", (1,), bytes(16)), "holds complex128, not a type gpquarto writes"),
        (b"\x93NUMPY\x02\x00" + (10**9).to_bytes(4, "little"), "an .npy header of 1,000,000,000 bytes"),
        (b"not numpy", "not an .npy array"),
    ],
)
def test_foreign_members_are_refused_from_their_header(tmp_path, quarto_header, member, message):
    header, _ = quarto_header
    path = zip_of(tmp_path / "odd.npz", {"header.npy": header_member(header), "weights.npy": member})
    refused(path, message)


def test_a_table_too_large_is_refused_before_it_is_read(tmp_path):
    header, _ = learned_data(
        NTupleModel(default_encoder("quarto", {})), game="quarto", settings={"rules": "classic"}, method="q-learning"
    )
    header["model"], header["features"] = "table", None
    entries = MAX_TABLE_ENTRIES + 1
    arrays = {
        "keys_high": np.zeros(entries, np.uint64),
        "keys_low": np.arange(entries, dtype=np.uint64),
        "values": np.zeros(entries),
    }
    path = tmp_path / "table.npz"
    path.write_bytes(npz_bytes(arrays, header))
    refused(str(path), f"a table of {entries:,} entries, more than the {MAX_TABLE_ENTRIES:,}")
    small = {name: array[:1000] for name, array in arrays.items()}
    path.write_bytes(npz_bytes(small, header))
    assert len(read_learned_file(path)[1]["values"]) == 1000
    unsorted = {**small, "keys_low": small["keys_low"][::-1].copy()}
    path.write_bytes(npz_bytes(unsorted, header))
    refused(str(path), "ascending and distinct")


@pytest.mark.parametrize("command", [["show"], ["match", "random", "--games", "2", "--quiet"]])
def test_the_command_line_says_one_line_for_a_hostile_file(tmp_path, command):
    path = zip_of(tmp_path / "deep.npz", {"header.npy": header_member(b"[" * 100_000 + b"]" * 100_000)})
    arguments = [command[0], path, *command[1:]]
    done = run_cli(*arguments, cwd=Path.cwd(), timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "nests more than 64 levels deep" in done.stderr, done.stderr


@pytest.fixture
def learn_run(tmp_path):
    config = LearnConfig(game="quixo", settings={"size": 3}, episodes=20, batch=10, eval_games=0)
    learn(config, tmp_path / "run")
    return tmp_path / "run"


def test_a_learning_run_config_is_read_with_the_plain_file_caps(learn_run):
    config = learn_run / "config.json"
    good = config.read_text()
    config.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(LearnRunError, match="unreadable learning run config .*nested") as error:
        open_learn_run(learn_run)
    assert "\n" not in str(error.value)
    config.write_text("[1, 2]")
    with pytest.raises(LearnRunError, match="not a JSON object"):
        open_learn_run(learn_run)
    config.write_text(good)
    assert open_learn_run(learn_run).config.episodes == 20


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda header, arrays: ({**header, "curve": [{"episodes": 1}]}, arrays), "a row of 'curve' needs the fields"),
        (lambda header, arrays: ({**header, "episodes": -3}, arrays), "'episodes' must be a whole number >= 0"),
        (lambda header, arrays: (header, {**arrays, "tc_sizes": np.zeros(7)}), "'tc_sizes' must be 810 float64"),
        (lambda header, arrays: (header, {**arrays, "extra": np.zeros(1)}), "arrays ['extra', 'tc_errors'"),
        (lambda header, arrays: ("[" * 5000 + "]" * 5000, arrays), "nests more than 64 levels deep"),
    ],
)
def test_a_tampered_checkpoint_is_refused_in_one_line_on_resume(learn_run, change, message):
    header, arrays = open_learn_run(learn_run).checkpoint()
    header, arrays = change(header, arrays)
    buffer = io.BytesIO()
    raw = json.dumps(header).encode() if not isinstance(header, str) else header.encode()
    np.savez_compressed(buffer, header=np.frombuffer(raw, dtype=np.uint8), **arrays)
    (learn_run / "checkpoint.npz").write_bytes(buffer.getvalue())
    with pytest.raises(LearnRunError) as error:
        resume(learn_run, episodes=30)
    assert message in str(error.value) and "\n" not in str(error.value), str(error.value)
