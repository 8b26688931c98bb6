"""The local web app behind ``gpquarto serve``: play, explain, watch, replay and look at training runs.

Needs the ``web`` extra (``pip install "gpquarto[web]"``: Starlette and uvicorn). :mod:`.sessions` holds
the game logic and imports no web framework; :mod:`.app` maps it to HTTP routes and serves the static
page (plain HTML, JavaScript and CSS in ``static/``, no build step).
"""

#: Seconds a watched game may take in all unless ``serve --watch-seconds`` says otherwise: past them, the player to
#: move forfeits (a Quixo game may last 300 plies, each up to the time limit: without a budget, one request could
#: hold a worker process for an hour). Here, not in :mod:`.sessions`, so that the command line reads it cheaply.
WATCH_SECONDS = 120.0
#: Seconds a request's whole body may take to arrive unless ``serve --body-seconds`` says otherwise: past them, the
#: request gets 408 and its connection is closed (a client that sends half a body does not hold the server).
BODY_SECONDS = 10.0
