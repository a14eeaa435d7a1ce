"""The board wing: the cell lattice, levels, region graphs, the rules engine (the executable spec), the
board's symmetries, and a level's content hash (`hashing`). It may import only the foundations
(`kamicp.errors`, `kamicp.limits`, the compiled core) and the standard library and networkx."""
