"""Connect Four as a gpquarto game plug-in.

``connect_four.game`` holds the rules (a bitboard engine on gpquarto's game interface), ``connect_four.plugin``
the plug-in gpquarto finds through its entry point, and the other modules the capabilities it offers: the board of
cells (``board_view``), the web's drawing data (``drawing``), the search hooks (``search_hooks``), the exact solver
for small boards (``solver``) and the PNG pictures (``pictures``).
"""

from connect_four.game import CONNECT_FOUR, ConnectFourState, ConnectFourView

__all__ = ["CONNECT_FOUR", "ConnectFourState", "ConnectFourView"]
