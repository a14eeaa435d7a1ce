"""The prover: the CP-SAT model, the search, the bounds and upper bounds, the horizon loop with its proof
log, the race and the cubes with their distribution. It may import the board, the runtime and the
foundations (errors, limits), never a sibling puzzle, a designer tool, the packs or the faces: a sibling
plugs into the horizon loop through its protocols (`horizons.Prover`, `request.Rules`)."""
