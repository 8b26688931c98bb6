"""The game layer: one interface every game speaks (:mod:`gpquarto.games.interface`), and the games on it.

Everything above this folder (search, players, the arena, GP, grading, the CLI and the web app) reaches a
game through this package; nothing here imports anything above it.
"""
