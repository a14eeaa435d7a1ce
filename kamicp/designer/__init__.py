"""The designer tools: what a level designer asks of one level. How many optimal solutions it has and
how many up to commuting moves (`count`), the best next move from any position (`hint`), new levels
whose optimum is proven to be exactly the par (`generate`), and the official solutions of game files
replayed, with a level's summary (`official`).

They may import the siblings, the prover, the formats, the pictures, the board, the runtime and the
foundations; never the packs or the faces (which build on them).
"""

from kamicp.designer.count import CountResult, count_optimal
from kamicp.designer.generate import Generated, GenerateSpec, generate_level, generate_pack
from kamicp.designer.hint import Hint, HintStatus, hint
from kamicp.designer.official import OfficialReport, check_official

__all__ = ["CountResult", "Generated", "GenerateSpec", "Hint", "HintStatus", "OfficialReport", "check_official",
           "count_optimal", "generate_level", "generate_pack", "hint"]
