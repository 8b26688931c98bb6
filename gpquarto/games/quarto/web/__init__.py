"""Quarto on the web server: the capability ``WebSupport`` (``support``) and its hints (``hints``)."""
