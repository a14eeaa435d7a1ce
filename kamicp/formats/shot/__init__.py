"""Reading pictures of boards, in focused parts: colour science (colour), opening a picture at a bounded
size (image), what an import returns (report), the Kami 2 game's layout (layout), its cells and holes
(cells), the moves-left number (moves) and the game reader that puts them together (game). The generic
board-on-a-margin reader and the entry points are kamicp.formats.screenshot."""
