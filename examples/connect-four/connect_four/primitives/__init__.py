"""Connect Four's own primitives, beside the neutral and generic ones (its library: neutral + generic + these).

They read :class:`connect_four.gp.ConnectFourFeatures` and belong to Connect Four alone."""

from __future__ import annotations

#: The family modules of this package, in library order.
FAMILY_MODULES = ["threats"]
