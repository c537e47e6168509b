"""Pairing systems, one package each (``dutch``, ``lim``, ``nearest``), behind one interface
(``interface``) and registered by name (``registry``). ``base``, ``matching`` and
``search_order`` are shared by the systems that pair an order of players (``by_standings``)."""
