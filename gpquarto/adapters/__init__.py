"""What the adapters to other libraries share; each game's own adapters live in its package (Quarto's:
:mod:`gpquarto.games.quarto.adapters.course`, Quixo's: :mod:`gpquarto.games.quixo.adapters.course`)."""
