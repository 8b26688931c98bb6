"""Quixo's engine benchmark (:mod:`.engine`): every playout path timed beside the reference."""
