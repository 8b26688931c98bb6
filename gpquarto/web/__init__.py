"""The local web app behind ``gpquarto serve``: play, explain, watch, replay and look at training runs.

Needs the ``web`` extra (``pip install "gpquarto[web]"``: Starlette and uvicorn). :mod:`.sessions` holds
the game logic and imports no web framework; :mod:`.app` maps it to HTTP routes and serves the static
page (plain HTML, JavaScript and CSS in ``static/``, no build step).
"""
