"""The capability types a game plug-in may offer (see ``docs/design/game-plugins.md``).

Each is a class that the object providing it derives from (or is an instance of); shared code asks
``plugin.capability(ExactSolver)`` and never a game's name. The classes here hold no game knowledge: the
objects that implement them live in the game's package and are named in its plug-in by ``"module:attribute"``.
"""

from __future__ import annotations

import importlib
import importlib.resources
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gpquarto.games.plugin import Capability, PluginError


@dataclass(frozen=True)
class ZooPlayers(Capability):
    """The game's own named players: the modules whose import registers them with
    ``gpquarto.players.registry.register_player`` (Quarto's ``novice``, ``frontier``, ``minimax``...; a faster
    player under a name every game has, such as ``mcts``, is an accelerator of that generic player)."""

    description = "players of its own"
    modules: tuple[str, ...]

    def load(self) -> None:
        """Import the modules (each registers its players once)."""
        for module in self.modules:
            importlib.import_module(module)


class GPBinding(Capability):
    """What the GP core needs to know about the game: ``gpquarto.gp.binding.GPGame`` derives from this."""

    description = "GP binding (rule players cannot be evolved for it)"


@dataclass(frozen=True)
class LearningEncoders(Capability):
    """The n-tuple features ``learn`` can use for the game: factories by name (each takes the game's settings and
    gives an encoder, ``gpquarto.learned.models.Encoder``), and the one used unless told."""

    description = "n-tuple features for learning"
    factories: Mapping[str, Callable[..., Any]]
    default: str

    def __post_init__(self) -> None:
        if self.default not in self.factories:
            raise ValueError(f"the default n-tuple features {self.default!r} are not among {', '.join(self.factories)}")


@dataclass(frozen=True)
class Solution:
    """The exact value of a position for its side to move (1 win, 0 draw, -1 loss), the best actions (every
    action that keeps the value; where the solver knows distances, the quickest win or the slowest loss among
    them), the plies to the end under best play where known, and a line saying what the solve cost
    (``"nodes: 33"``)."""

    value: int
    best_actions: tuple[int, ...]
    distance: int | None = None
    cost: str = ""


#: A solver's progress lines (for a solve that takes a while), shown to the user as they come.
Progress = Callable[[str], None]

VALUE_WORDS = {1: "win", 0: "draw", -1: "loss"}


class ExactSolver(Capability):
    """Perfect play in the positions a game's solver can solve.

    ``size_word`` names what :meth:`size` counts (``"empty squares"``), the measure of the work a position
    takes: commands bound it (``solve --max-empty``, the grade bank's range). ``why_not(state)`` says in one
    line why a position cannot be solved at all (a board too large), else None. ``solve`` may take a while
    (``progress`` gets lines to show) and raises a one-line ``ValueError`` when it gives up."""

    description = "exact solver"
    size_word = "empty cells"

    def size(self, state: Any) -> int:
        """How large ``state`` is for the solver (empty squares, blank cubes)."""
        raise NotImplementedError

    def why_not(self, state: Any) -> str | None:
        """Why ``state`` cannot be solved (one line), or None."""
        return None

    def solve(self, state: Any, progress: Progress | None = None) -> Solution:
        """The exact value of ``state`` (not a finished game) and its best actions."""
        raise NotImplementedError

    def describe_mover(self, state: Any) -> str:
        """Who the value is for, in words: ``"player 1 (to choose a piece)"``."""
        return f"player {state.player}"


class Pictures(Capability):
    """PNG drawings of the game's positions and games (matplotlib figures)."""

    description = "PNG pictures"

    def position_figure(self, state: Any, title: str = "", highlight: tuple[int, ...] = ()) -> Any:
        """A figure of ``state``, the actions in ``highlight`` marked (Quarto: the squares of placements)."""
        raise NotImplementedError

    def game_figure(self, record: Any, result: str) -> Any:
        """A figure of a whole game (a ``GameRecord``) and how it ended."""
        raise NotImplementedError


class BoardDrawing(Capability):
    """What a drawing of the game's board needs, as plain data (JSON-able): the web page and the terminal views
    add it to every position they show (Quarto: the pieces on the squares, the piece in hand; Quixo: the cubes,
    the legal actions and the complete lines)."""

    description = "board drawing"

    def board_data(self, state: Any) -> dict:
        """The drawing's data of ``state``."""
        raise NotImplementedError


class Board(Capability):
    """The game's board as a grid of cells, each holding a small int: what the generic n-tuple encoder, the
    generic GP features and the generic drawings read (shared code never knows what a cell means).

    ``shape(settings)`` gives (rows, columns) for the game's checked settings; ``cell_values(settings)`` how many
    values a cell takes (0 is an empty cell, values ``1..cell_values-1`` the game's marks or pieces). When
    ``seat_marks`` is true, values 1 and 2 are the marks of seats 0 and 1 (Connect Four's discs), so an encoder
    may read a position from the mover's side by swapping them; ``cells(state)`` lists the cells row by row."""

    description = "board of cells"
    seat_marks = True

    def shape(self, settings: Mapping[str, object]) -> tuple[int, int]:
        """(rows, columns) of the board under ``settings``."""
        raise NotImplementedError

    def cell_values(self, settings: Mapping[str, object]) -> int:
        """How many values a cell takes, 0 (empty) included."""
        return 3

    def cells(self, state: Any) -> tuple[int, ...]:
        """The value of every cell of ``state`` (a state or its view), row by row from the top."""
        raise NotImplementedError


class SearchHooks(Capability):
    """What makes the generic searches play the game well: an evaluation of a position that is not over, for the
    side to move, in (-1, 1) (alpha-beta's leaves, and MCTS's instead of a random rollout where ``mcts_evaluates``),
    and a move ordering (alpha-beta tries the most promising action first). Without them, alpha-beta counts only
    wins and losses and MCTS plays random rollouts."""

    description = "search hooks"
    #: Whether MCTS should value a new leaf by ``evaluate`` instead of a random rollout.
    mcts_evaluates = False

    def evaluate(self, state: Any) -> float:
        """How good ``state`` (not over) is for its side to move, in (-1, 1)."""
        return 0.0

    def order(self, state: Any, actions: Sequence[int]) -> Sequence[int]:
        """``actions`` (the legal actions of ``state``), most promising first."""
        return actions


class PlayerForm(Capability):
    """A game's own way of asking its players, for speed where a decision costs microseconds (Quarto's
    ``choose_piece`` and ``place_piece``): the arena plays two players that speak it in the game's own loop, and
    ``grade`` asks them in it. It must give the records and answers that ``decide(view)`` and the arena's loop give
    (the game's tests play both)."""

    description = "a player form of its own"

    def speaks(self, player: Any) -> bool:
        """True when ``player`` answers in the form."""
        raise NotImplementedError

    def play(self, state: Any, players: Sequence[Any], times: list[float], limit: float) -> Any:
        """Play the game from ``state`` (not over) between ``players`` (both speak the form) and return its
        ``Outcome``: each decision's seconds appended to ``times``, an exception, an illegal answer or a decision
        over ``limit`` seconds a forfeit (``gpquarto.arena.outcomes``), the late action taken back."""
        raise NotImplementedError

    def ask(self, player: Any, view: Any) -> object:
        """The answer of ``player`` (which speaks the form) to the decision due in ``view``, not validated."""
        raise NotImplementedError

    def apply(self, state: Any, answer: object) -> str:
        """Play ``answer`` (from :meth:`ask`) on ``state``: ``""``, or why it is illegal (``"illegal placement
        17: ..."``), the state unchanged."""
        raise NotImplementedError


class EvolvedEvaluators(Capability):
    """Evaluator genomes for the game's own searches (``train --genome evaluator``, ``minimax:depth=2,evaluator=FILE``):
    how an evaluator tree (``gpquarto.gp.evaluator.EvaluatorGenome``) is compiled to score the game's positions,
    which of the game's players search with one, what a search's evaluations cost, where a simplified evaluator is
    checked against the original, and a learned player as an evaluator."""

    description = "evolved evaluators"
    #: The game's players that take ``evaluator=FILE`` (they search with a heuristic).
    searching_players: tuple[str, ...] = ()

    def compile(self, genome: Any, library: Any, *, name: str = "evolved") -> Any:
        """``genome`` compiled over ``library``: a callable scoring a position for its side to move, with a
        ``name`` and ``heuristic()`` (what the searching players take)."""
        raise NotImplementedError

    def searcher(
        self, name: str, values: dict[str, str], evaluator: Any, *, spec: str = "", seed: int | None = None
    ) -> Any:
        """The player ``name`` (one of :attr:`searching_players`) with the options ``values`` (as text), searching
        with ``evaluator``; named ``spec`` when given."""
        raise NotImplementedError

    def cost(self, player: Any) -> float:
        """What the evaluations of ``player`` (a :meth:`searcher`) cost since it was made, in evaluations per leaf
        (1.0: one per leaf, the least)."""
        return 1.0

    def check_features(self, count: int, seed: int) -> list[Any]:
        """The features of ``count`` seeded positions where the searches ask for a score: a simplified evaluator
        must score like the original at each."""
        raise NotImplementedError

    def learned(self, path: str) -> Any:
        """The learned player file ``path`` as an evaluator; a one-line ``ValueError`` when the game has none."""
        raise ValueError("learned players cannot evaluate for this game's searches")


#: The games a bank's positions come from unless a game says otherwise: weak and stronger play of the generic zoo,
#: so that both sloppy and sharp endgames occur.
GENERIC_BANK_PAIRINGS: tuple[tuple[str, str], ...] = (
    ("random", "alphabeta:depth=1"),
    ("alphabeta:depth=1", "alphabeta:depth=2"),
    ("random", "random"),
    ("mcts:iterations=100", "alphabeta:depth=2"),
)


class GradingBank(Capability):
    """How ``grade`` and the accuracy term bank the game's decisions (``gpquarto.grading.bank``): which games the
    positions come from, which settings and sizes (the exact solver's :meth:`ExactSolver.size`) a bank may have,
    how a position is solved, and how a bank's cache key names the settings. A game without it gets the generic
    bank of ``gpquarto.grading.bank``, built on its :class:`ExactSolver` (or the generic solver)."""

    description = "grade bank"
    #: The pairs of player specs whose games the positions come from, in turn.
    pairings: tuple[tuple[str, str], ...] = GENERIC_BANK_PAIRINGS
    #: Whether the solver tells the best actions (the quickest win, the slowest loss) beside those that keep the
    #: value: ``grade`` then shows how often a player found one.
    knows_best = True
    #: Whether the bank's files name the game (Quarto's banks were written before other games existed, and keep
    #: their form so that cached banks and their keys stay valid).
    names_game = True

    def settings(self, given: Mapping[str, object]) -> dict[str, object]:
        """The settings of a bank from those the user gave, checked and completed; a one-line ``ValueError``."""
        raise NotImplementedError

    def default_empties(self, settings: Mapping[str, object]) -> tuple[int, int]:
        """The smallest and largest position size (in the solver's ``size_word``) of a bank unless told."""
        raise NotImplementedError

    def empties_limits(self, settings: Mapping[str, object]) -> tuple[int, int]:
        """The smallest and largest position size a bank may ask for."""
        raise NotImplementedError

    def key(self, settings: Mapping[str, object]) -> dict[str, object]:
        """What a bank's cache key holds of its settings besides ``rules`` (plain JSON data)."""
        raise NotImplementedError

    def describe(self, settings: Mapping[str, object]) -> str:
        """The settings in a bank's one-line description (``"classic rules"``)."""
        raise NotImplementedError

    def tag(self, settings: Mapping[str, object]) -> str:
        """What a cached bank's file name says of the game and settings (``"quixo4x4"``; ``""``: nothing)."""
        raise NotImplementedError

    def solve(self, state: Any) -> tuple[int, tuple[int, ...], int, tuple[int, ...]]:
        """(value for the side to move: 1, 0 or -1; every action that keeps it; the number of legal actions; the
        best of those where ``knows_best``, else ``()``) of ``state``, not over."""
        raise NotImplementedError

    def kinds(self, settings: Mapping[str, object]) -> tuple[str, ...]:
        """The names of the other kinds of bank the game makes with these settings, besides its default one
        (``grade --bank KIND``, the accuracy term's ``accuracy_bank``). A bank of a kind takes every position of its
        games (of :meth:`kind_pairings`) that :meth:`screen` passes and :meth:`solve_kind` keeps, in game order,
        not one a game per stratum; its positions' sizes are, unless told, every size :meth:`empties_limits`
        allows."""
        return ()

    def kind_pairings(self, kind: str) -> tuple[tuple[str, str], ...]:
        """The pairs of player specs whose games a bank of ``kind`` takes its positions from, in turn."""
        return self.pairings

    def describe_kind(self, kind: str, settings: Mapping[str, object]) -> str:
        """The settings and the kind in a bank's one-line description."""
        return f"{self.describe(settings)}, {kind}"

    def screen(self, kind: str, states: list[Any]) -> list[bool]:
        """Which of ``states`` (positions of a game, not over) a bank of ``kind`` solves: a cheap test ahead of
        :meth:`solve_kind` (every one unless the game says otherwise)."""
        return [True] * len(states)

    def solve_kind(self, kind: str, state: Any) -> tuple[int, tuple[int, ...], int, tuple[int, ...]] | None:
        """:meth:`solve` of ``state`` as a bank of ``kind`` labels it, or None when such a bank does not keep it."""
        raise NotImplementedError

    def legend(self, settings: Mapping[str, object]) -> tuple[str, str, str]:
        """What ``grade``'s table says under it of a bank with these settings: what the accuracy counts, what a
        best move is, and what the two blunder columns count."""
        return (
            "share of decisions that keep the exact value",
            "the fastest win (or the slowest loss)",
            "won thrown: a won position let go to a draw or a loss; draw lost: a drawn position lost",
        )


@dataclass(frozen=True)
class TrainingDefaults(Capability):
    """The defaults of ``train``, ``experiment`` and ``learn`` for the game, where they differ from the generic
    ones (``gpquarto.training.config.GENERIC_TRAINING_DEFAULTS`` for a game without this capability).

    ``evolution``: the evolution config's settings that differ from its dataclass defaults (Quarto's);
    ``evaluation_opponents``: what an experiment's final players are measured against; ``learning``: by learning
    method, the defaults of its settings left unset (``episodes``, ``alpha``, ``step``, ``epsilon_start``);
    ``learning_evaluation``: the opponents of a learning curve; ``accuracy_max_empties``: whether the accuracy
    term's training bank is bounded by the config's ``accuracy_max_empties`` (else the game's bank range);
    ``evaluator_genomes``: whether ``train --genome evaluator`` evolves evaluations of the game's positions."""

    description = "training defaults"
    evolution: Mapping[str, object]
    evaluation_opponents: tuple[str, ...] = ("random", "alphabeta:depth=2")
    learning: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    learning_evaluation: str = "random,alphabeta:depth=2"
    accuracy_max_empties: bool = False
    evaluator_genomes: bool = False


class Benchmarks(Capability):
    """The game's own ``bench`` targets (its fast paths beside the generic ones, its targets' verdicts): ``bench
    TARGET --game G`` runs :meth:`run` for a target in :attr:`targets`, and the generic benchmark of
    ``gpquarto.bench.generic`` (random games, time per decision, solve times over the interface) otherwise."""

    description = "benchmarks of its own"
    targets: tuple[str, ...] = ()

    def run(self, target: str, args: Any) -> int:
        """Run ``bench TARGET`` with the parsed command line ``args`` (an ``argparse.Namespace``; its game settings
        through ``gpquarto.cli.common.game_settings``) and return the exit status."""
        raise NotImplementedError


class HintService:
    """A game's hints on a web server: made once per server with its thread pool (``executor``), asked from a
    thread (never the event loop). A game whose hints need work before a game can start (a solution to compute)
    says so in :meth:`prepare`."""

    def hint(self, state: Any) -> dict:
        """The exact verdict for the side to move as plain JSON data: ``solved`` (bool), and when solved
        ``value`` (1, 0, -1), ``best_actions`` and a one-line ``text``; when not, ``text`` says why (and
        ``pending`` whether asking again later will do)."""
        raise NotImplementedError

    def prepare(self, player: str, state: Any) -> None:
        """Before a game of ``player`` (a zoo name) from ``state`` starts: nothing, or an exception whose one
        line tells the visitor why not yet (the web layer's ``RequestError``, 503 while a solution is computed)."""

    def close(self) -> None:
        """The server is stopping: end any background work at once."""


@dataclass(frozen=True)
class WebSupport(Capability):
    """What the web server needs beyond the interface: the largest search budget a request may ask of each
    player (``budget_caps``: player name -> parameter -> cap), the player parameters that are time budgets,
    bounded by the server's time limit (``time_parameters``: player name -> parameter), and where the game's
    hint service is (``hints``: ``"module:Class"``, made with the server's executor; ``""``: the generic hints of
    ``gpquarto.web.hints``, by the exact solver). A move request is ``{"action": A}`` (the int, or its name such as
    ``action_example``) or one of ``move_fields``: field -> (how many values, the action of value 0), so that
    Quarto's ``{"square": 3}`` is action 19."""

    description = "web support"
    budget_caps: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    time_parameters: Mapping[str, str] = field(default_factory=dict)
    hints: str = ""
    move_fields: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    action_example: str = ""
    #: The game's own page script, ``"package:file.js"`` (a file inside one of its packages), served at
    #: ``/games/NAME/page.js``: it draws the game and builds its controls on the page by calling
    #: ``registerGamePage`` (see ``gpquarto/web/static/app.js``); ``""``: the page's generic grid and move buttons.
    page_script: str = ""

    def page_script_text(self) -> str | None:
        """The page script's JavaScript, or None when the game has none (a ``PluginError`` in one line when the
        declared file cannot be read)."""
        if not self.page_script:
            return None
        package, _, name = self.page_script.partition(":")
        try:
            return importlib.resources.files(package).joinpath(name).read_text(encoding="utf-8")
        except (ModuleNotFoundError, OSError, ValueError) as error:
            raise PluginError(f"the page script {self.page_script!r} cannot be read: {error}") from None
