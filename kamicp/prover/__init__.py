"""The prover wing: proofs of optimality. The request (`request`: the rules protocol and the budget), the
solving API (`solver`: `solve`, `validate`, `prove_under`, Kami's `Free` rules), the `auto` race of two
processes (`race`), the one horizon loop with its proof log (`horizons`) and what it asks of its
surroundings (`coordination`), the engines (`engines`) over the CP-SAT model (`model`) and the search
(`search`, with the compiled core), sound lower bounds (`bounds`), upper bounds (`upper`), cubes (`cubes`,
`prior`) and their distribution on Dask (`distributed`, `cube_task`), the typed answers (`outcome`) and
the options by owner (`config`).

It may import the board, the runtime and the foundations; never a sibling puzzle, a designer tool, the
packs or the faces. A sibling plugs into the horizon loop through its protocols (`horizons.Prover`,
`request.Rules`): Flood-It's `Pivot` rules bring their own engines.
"""

from kamicp.prover.horizons import Footing, HorizonLoop, Prover
from kamicp.prover.outcome import EngineName, Horizon, Outcome, Result, Status, Validation, Verdict
from kamicp.prover.request import Budget, Rules
from kamicp.prover.solver import Free, prove_under, solve, validate

__all__ = ["Budget", "EngineName", "Footing", "Free", "Horizon", "HorizonLoop", "Outcome", "Prover", "Result",
           "Rules", "Status", "Validation", "Verdict", "prove_under", "solve", "validate"]
