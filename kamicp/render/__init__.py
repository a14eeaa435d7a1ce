"""The pictures wing: levels and solutions drawn in the terminal (rich), as SVG and as PNG, and the
screenshot import's check picture (`render.overlay`). A picture is a `Scene` (plain shapes, `render.scene`)
written by `render.svg` or `render.png`; `render.files` is the only place kamicp writes pictures to files,
refusing to overwrite without `force`.

May import: the board, the runtime's atomic writer (`runtime.atomic`) and the foundations only (a picture
takes plain data: never a reader's report, a solver's result or a Katamino type). Pillow is imported only by
`render.png` and `render.overlay`, which this package's face does not load."""

from kamicp.render.colours import hex_of, parse_colour
from kamicp.render.files import (
    check_steps_dir,
    check_writable,
    encode,
    picture_kind,
    picture_scene,
    write_bytes,
    write_picture,
    write_scene,
    write_steps,
)
from kamicp.render.safe import printable
from kamicp.render.scene import Scene, board_scene, steps_scenes, strip_scene
from kamicp.render.svg import board_svg, scene_svg
from kamicp.render.terminal import board_view, legend, swatch

__all__ = ["Scene", "board_scene", "board_svg", "board_view", "check_steps_dir", "check_writable", "encode",
           "hex_of", "legend", "parse_colour", "picture_kind", "picture_scene", "printable", "scene_svg",
           "steps_scenes", "strip_scene", "swatch", "write_bytes", "write_picture", "write_scene", "write_steps"]
