"""Every kind of file gpquarto reads, generated and mutated: each gives a result or a one-line error, within its
time budget and memory cap (issue 32, the fuzz suite). Seeds are files gpquarto wrote itself; mutations are
byte-level (cuts, flips, inserted hostile chunks) and structural (a value, key or item of the data changed)."""

from __future__ import annotations

import io
import json
import pickle
import shutil
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from gpquarto.arena import play_game
from gpquarto.arena.record import FIRST_RECORD_FORMAT, GameRecord
from gpquarto.gp.evaluator_player import evaluator_player
from gpquarto.learned.models import NTupleModel, TableModel, default_encoder
from gpquarto.learned.storage import learned_data, load_learned_player, npz_bytes
from gpquarto.learning import LearnConfig, learn, open_learn_run
from gpquarto.players.random_player import RandomPlayer
from gpquarto.resolve import make_player
from gpquarto.training.run import open_run
from tests.conftest import REPO
from tests.fuzz.strategies import json_bytes, mutated_bytes, mutated_data
from tests.fuzz.support import FUZZ, Refused, outcome

#: Inputs every JSON loader is given first, whatever the profile: deep nesting, a number of 5,000 digits, NaN,
#: a file larger than the plain-file cap, nothing.
DEEP_JSON = b"[" * 100_000 + b"]" * 100_000
HUGE_NUMBER = b'{"format": ' + b"9" * 5000 + b"}"
NOT_A_NUMBER = b'{"format": NaN, "rules": Infinity}'
TOO_LARGE = b'{"x": "' + b"a" * 20_000_001 + b'"}'

QUARTO_PLAYER = json.loads((REPO / "tests" / "reference" / "quarto_run" / "best_player.json").read_text())
EVALUATOR = json.loads((REPO / "tests" / "reference" / "evaluator_run" / "best_evaluator.json").read_text())


def scratch() -> Path:
    """A fresh folder for one input (Hypothesis runs many inputs per test: a fixture's folder would be shared)."""
    return Path(tempfile.mkdtemp(prefix="gpquarto-fuzz-"))


def played(player, game: str = "quarto", settings: dict | None = None) -> int:
    """The player's first decision from the start, checked legal (a loaded player must also play)."""
    from gpquarto.games.registry import get_game

    state = get_game(game).new_state(**(settings or {}))
    player.new_game(0)
    action = player.decide(state.view())
    assert action in state.legal_actions()
    return action


@pytest.fixture(scope="module", autouse=True)
def warm():
    """Every loader once before the fuzzing, outside the budgets: the first load of a process imports the primitive
    libraries and the players (seconds, and much more under tracemalloc), which no later input pays."""
    folder = scratch()
    (folder / "player.json").write_bytes(json_bytes(QUARTO_PLAYER))
    (folder / "evaluator.json").write_bytes(json_bytes(EVALUATOR))
    load_player_file(folder / "player.json")
    played(evaluator_player(f"minimax:depth=1,evaluator={folder / 'evaluator.json'}"))
    make_player("random", game="quixo")
    shutil.rmtree(folder)


# ------------------------------------------------------------------------------------------ evolved players
def load_player_file(path: Path):
    player = make_player(str(path))
    played(player, player.game or "quarto", getattr(player, "settings", None) or {})
    return player


@FUZZ
@given(st.one_of(mutated_data(QUARTO_PLAYER).map(json_bytes), mutated_bytes(json_bytes(QUARTO_PLAYER))))
@example(DEEP_JSON)
@example(HUGE_NUMBER)
@example(NOT_A_NUMBER)
@example(TOO_LARGE)
@example(b"")
def test_evolved_player_json(raw):
    folder = scratch()
    (folder / "player.json").write_bytes(raw)
    outcome("player file .json", lambda: load_player_file(folder / "player.json"))
    shutil.rmtree(folder)


def pickled(data: object) -> bytes:
    try:
        return pickle.dumps(data, protocol=4)
    except RecursionError:
        return b"\x80\x04" + b"(" * 5000


@FUZZ
@given(st.one_of(mutated_data(QUARTO_PLAYER).map(pickled), mutated_bytes(pickled(QUARTO_PLAYER))))
@example(b"\x80\x04" + b"(" * 100_000)
@example(b"\x80\x04\x95" + b"\xff" * 8)
@example(b"cos\nsystem\n(S'echo pwned'\ntR.")
@example(b"")
def test_evolved_player_pickle(raw):
    folder = scratch()
    (folder / "player.p").write_bytes(raw)
    outcome("player file .p", lambda: load_player_file(folder / "player.p"))
    shutil.rmtree(folder)


# ------------------------------------------------------------------------------------------ learned players
def learned_sample(kind: str) -> tuple[dict, dict[str, np.ndarray]]:
    if kind == "ntuple":
        model = NTupleModel(default_encoder("quarto", {"rules": "classic"}))
        model.weights[:] = np.linspace(-0.5, 0.5, model.weights.size)
        return learned_data(model, game="quarto", settings={"rules": "classic"}, method="td-ntuple")
    table = TableModel({key * 7919: (key % 21 - 10) / 10 for key in range(1, 50)})
    return learned_data(table, game="quarto", settings={"rules": "classic"}, method="q-learning")


NTUPLE, TABLE = learned_sample("ntuple"), learned_sample("table")


@st.composite
def hostile_arrays(draw, arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    arrays = dict(arrays)
    name = draw(st.sampled_from(sorted(arrays)))
    kind = draw(st.sampled_from(["dtype", "shape", "values", "drop", "extra", "2d"]))
    if kind == "dtype":
        arrays[name] = arrays[name].astype(draw(st.sampled_from([np.float32, np.int64, np.uint8, np.complex64, bool])))
    elif kind == "shape":
        arrays[name] = np.resize(arrays[name], draw(st.integers(0, 4000)))
    elif kind == "values":
        values = arrays[name].copy()
        if values.size:
            hostile = [np.nan, np.inf, 2.0, -7.0, 0] if values.dtype.kind == "f" else [0, 1, 2**63, 2**64 - 1]
            values[draw(st.integers(0, values.size - 1))] = draw(st.sampled_from(hostile))
        arrays[name] = values
    elif kind == "drop":
        del arrays[name]
    elif kind == "extra":
        arrays[draw(st.sampled_from(["x", "weights", "values", "header2"]))] = np.zeros(draw(st.integers(0, 10)))
    else:
        arrays[name] = np.zeros((2, draw(st.integers(1, 5))))
    return arrays


def npz_of(header: object, arrays: dict[str, np.ndarray]) -> bytes:
    return npz_raw(json_bytes(header), arrays)


def npz_raw(header: bytes, arrays: dict[str, np.ndarray]) -> bytes:
    buffer = io.BytesIO()
    np.savez_compressed(buffer, header=np.frombuffer(header, dtype=np.uint8), **arrays)
    return buffer.getvalue()


def learned_inputs(sample: tuple[dict, dict[str, np.ndarray]]):
    header, arrays = sample
    return st.one_of(
        mutated_data(header).map(lambda changed: npz_of(changed, arrays)),
        hostile_arrays(arrays).map(lambda changed: npz_of(header, changed)),
        mutated_bytes(npz_bytes(arrays, header)),
        st.builds(zip_members, st.lists(st.tuples(st.text(max_size=12), st.binary(max_size=300)), max_size=12)),
    )


def zip_members(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in members:
            archive.writestr(name or "x", content)
    return buffer.getvalue()


@FUZZ
@given(st.one_of(learned_inputs(NTUPLE), learned_inputs(TABLE)))
@example(npz_raw(DEEP_JSON, NTUPLE[1]))
@example(b"PK\x05\x06" + b"\x00" * 18)
@example(b"")
def test_learned_player_npz(raw):
    folder = scratch()
    (folder / "player.npz").write_bytes(raw)

    def load():
        player = load_learned_player(folder / "player.npz")
        played(player, player.game, player.metadata.get("settings"))
        return player

    outcome("learned player .npz", load)
    shutil.rmtree(folder)


# ------------------------------------------------------------------------------------------ evaluator files
@FUZZ
@given(st.one_of(mutated_data(EVALUATOR).map(json_bytes), mutated_bytes(json_bytes(EVALUATOR))))
@example(DEEP_JSON)
@example(HUGE_NUMBER)
@example(NOT_A_NUMBER)
def test_evaluator_file(raw):
    folder = scratch()
    (folder / "evaluator.json").write_bytes(raw)
    spec = f"minimax:depth=1,evaluator={folder / 'evaluator.json'}"
    outcome("evaluator file .json", lambda: played(evaluator_player(spec)))
    shutil.rmtree(folder)


# ------------------------------------------------------------------------------------------ game records
def record_data(game: str) -> dict:
    settings = {"size": 4} if game == "quixo" else {}
    record = play_game((RandomPlayer(), RandomPlayer()), game=game, settings=settings, seed=3)
    return record.to_dict()


RECORDS = [record_data("quarto"), record_data("quixo")]
FIRST_FORMAT = {
    key: value
    for key, value in {**RECORDS[0], "format": FIRST_RECORD_FORMAT}.items()
    if key not in ("game", "settings", "positions")
}


def load_record(path: Path) -> GameRecord:
    record = GameRecord.load(path)
    record.replay()
    return record


@FUZZ
@given(
    st.one_of(
        *(mutated_data(data).map(json_bytes) for data in (*RECORDS, FIRST_FORMAT)),
        *(mutated_bytes(json_bytes(data)) for data in (*RECORDS, FIRST_FORMAT)),
    )
)
@example(DEEP_JSON)
@example(HUGE_NUMBER)
@example(NOT_A_NUMBER)
@example(TOO_LARGE)
def test_game_record(raw):
    folder = scratch()
    (folder / "game.json").write_bytes(raw)
    outcome("game record (both formats)", lambda: load_record(folder / "game.json"))
    shutil.rmtree(folder)


# ------------------------------------------------------------------------------------------ run folders
@pytest.fixture(scope="module")
def train_run(tmp_path_factory) -> Path:
    from gpquarto.cli import main

    folder = tmp_path_factory.mktemp("fuzz-train") / "run"
    arguments = ["train", "--generations", "1", "--population", "4", "--games", "2", "--final-games", "0"]
    arguments += ["--accuracy-weight", "0", "--run-dir", str(folder), "--filename", str(folder / "copy.p")]
    assert main([*arguments, "--workers", "1", "--quiet"]) == 0
    return folder


def copy_run(folder: Path, name: str, raw: bytes) -> Path:
    target = scratch() / "run"
    shutil.copytree(folder, target)
    (target / name).write_bytes(raw)
    return target


def read_train_run(folder: Path) -> object:
    run = open_run(folder)
    finished = run.finished  # never raises: a bad mark means "not finished"
    assert isinstance(finished, bool)
    return run.generations_done, run.logbook(), run.hall_of_fame(), run.best_player_spec


@FUZZ
@given(data=st.data())
def test_training_config_json(train_run, data):
    original = json.loads((train_run / "config.json").read_text())
    raw = data.draw(st.one_of(mutated_data(original).map(json_bytes), mutated_bytes(json_bytes(original))))
    folder = copy_run(train_run, "config.json", raw)
    outcome("training config.json", lambda: read_train_run(folder), seconds=10)
    shutil.rmtree(folder.parent)


@FUZZ
@given(data=st.data())
def test_training_checkpoint(train_run, data):
    original = pickle.loads((train_run / "checkpoint.dill").read_bytes())  # our own file, plain data
    raw = data.draw(st.one_of(mutated_data(_plain(original)).map(pickled), mutated_bytes(pickled(original))))
    folder = copy_run(train_run, "checkpoint.dill", raw)
    outcome("training checkpoint", lambda: read_train_run(folder), seconds=10)
    shutil.rmtree(folder.parent)


def _plain(value: object) -> object:
    """A checkpoint's data with tuples as lists (what the JSON-like mutations walk)."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


@FUZZ
@given(data=st.data())
def test_finished_json(train_run, data):
    original = json.loads((train_run / "finished.json").read_text())
    raw = data.draw(st.one_of(mutated_data(original).map(json_bytes), mutated_bytes(json_bytes(original))))
    folder = copy_run(train_run, "finished.json", raw)
    result = outcome("finished.json", lambda: open_run(folder).finished)
    assert isinstance(result, bool)  # a completion mark is read, never refused: a bad one means not finished
    shutil.rmtree(folder.parent)


@pytest.fixture(scope="module")
def learn_run(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fuzz-learn") / "run"
    learn(LearnConfig(game="quixo", settings={"size": 3}, episodes=20, batch=10, eval_games=0), folder)
    return folder


def read_learn_run(folder: Path) -> object:
    run = open_learn_run(folder)
    return run.episodes_done, run.curve(), run.seconds(), played(run.learned_player(), "quixo", {"size": 3})


@FUZZ
@given(data=st.data())
def test_learning_config_json(learn_run, data):
    original = json.loads((learn_run / "config.json").read_text())
    raw = data.draw(st.one_of(mutated_data(original).map(json_bytes), mutated_bytes(json_bytes(original))))
    folder = copy_run(learn_run, "config.json", raw)
    outcome("learning config.json", lambda: read_learn_run(folder))
    shutil.rmtree(folder.parent)


@FUZZ
@given(data=st.data())
def test_learning_checkpoint(learn_run, data):
    with np.load(learn_run / "checkpoint.npz") as archive:
        arrays = {name: archive[name] for name in archive.files}
    header = json.loads(arrays.pop("header").tobytes())
    raw = data.draw(
        st.one_of(
            mutated_data(header).map(lambda changed: npz_of(changed, arrays)),
            hostile_arrays(arrays).map(lambda changed: npz_of(header, changed)),
            mutated_bytes((learn_run / "checkpoint.npz").read_bytes()),
        )
    )
    folder = copy_run(learn_run, "checkpoint.npz", raw)
    outcome("learning checkpoint .npz", lambda: read_learn_run(folder))
    shutil.rmtree(folder.parent)


@pytest.mark.parametrize("raw", [DEEP_JSON, HUGE_NUMBER, NOT_A_NUMBER, TOO_LARGE, b""], ids=lambda raw: str(len(raw)))
@pytest.mark.parametrize(
    ("run", "name", "read"),
    [
        ("train_run", "config.json", read_train_run),
        ("train_run", "checkpoint.dill", read_train_run),
        ("train_run", "finished.json", lambda folder: open_run(folder).finished),
        ("learn_run", "config.json", read_learn_run),
        ("learn_run", "timing.json", read_learn_run),
    ],
)
def test_the_classic_hostile_contents_in_run_folders(request, raw, run, name, read):
    folder = copy_run(request.getfixturevalue(run), name, raw)
    result = outcome(f"{name} of a run (classics)", lambda: read(folder))
    if name in ("finished.json", "timing.json"):
        assert not isinstance(result, Refused)  # a bad completion mark or timing file is read as none
    shutil.rmtree(folder.parent)


# ------------------------------------------------------------------------------------------ sanity of the suite
def test_the_seeds_load_unchanged(train_run, learn_run):
    """The files the mutations start from load: a mutation that is refused is refused for what it changed."""
    folder = scratch()
    (folder / "player.json").write_bytes(json_bytes(QUARTO_PLAYER))
    (folder / "player.p").write_bytes(pickled(QUARTO_PLAYER))
    (folder / "evaluator.json").write_bytes(json_bytes(EVALUATOR))
    (folder / "n.npz").write_bytes(npz_bytes(NTUPLE[1], NTUPLE[0]))
    (folder / "t.npz").write_bytes(npz_bytes(TABLE[1], TABLE[0]))
    for data in (*RECORDS, FIRST_FORMAT):
        (folder / "game.json").write_bytes(json_bytes(data))
        assert not isinstance(outcome("seeds", lambda: load_record(folder / "game.json")), Refused)
    for call in (
        lambda: load_player_file(folder / "player.json"),
        lambda: load_player_file(folder / "player.p"),
        lambda: played(evaluator_player(f"minimax:depth=1,evaluator={folder / 'evaluator.json'}")),
        lambda: played(load_learned_player(folder / "n.npz")),
        lambda: played(load_learned_player(folder / "t.npz")),
        lambda: read_train_run(train_run),
        lambda: read_learn_run(learn_run),
    ):
        assert not isinstance(outcome("seeds", call), Refused)
    assert open_run(train_run).finished
    shutil.rmtree(folder)
