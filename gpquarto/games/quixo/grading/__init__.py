"""Quixo's grade bank: the capability ``GradingBank`` (``bank``)."""
