"""Reading pictures of boards, in focused parts: colour science (colour), opening a picture at a bounded
size (image), what an import returns (report), the Kami 2 game's layout (layout), its cells and holes
(cells), the moves-left number (moves) and the game reader that puts them together (game). The generic
board-on-a-margin reader and the entry points are kamicp.formats.screenshot.

Part of the formats wing: may import `formats.common`, the board, the runtime and the foundations (and
numpy and Pillow, loaded only when a picture is read; this package's face, the report types, needs
neither)."""

from kamicp.formats.shot.report import Box, CellMark, ImportReport, Screenshot, UncertainCell

__all__ = ["Box", "CellMark", "ImportReport", "Screenshot", "UncertainCell"]
