"""The rulebook wing: the rules a level is played by, by name, in one neutral place above both siblings: Kami's
`free` (kamicp.prover.solver.Free: tap any region) and Flood-It's `pivot` (kamicp.floodit.Pivot: every move
repaints the pivot's region). The faces and the packs turn their `--rules`/`--pivot` options (or settings)
into a rules object here, so neither imports a sibling for it and no command branches on the rules.

May import: the siblings, the prover, the board, the runtime and the foundations (never the designer tools,
packs or faces)."""

from kamicp.rulebook.names import RULES, check_rules, rules_named

__all__ = ["RULES", "check_rules", "rules_named"]
