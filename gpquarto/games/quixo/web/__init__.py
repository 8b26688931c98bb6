"""Quixo on the web server: the capability ``WebSupport`` (``support``) and its solutions (``solutions``)."""
