"""The conventions of every command's help, including commands added later: `--time-limit SECONDS`,
`--engine [auto|cpsat|search]`, flags without a metavar, an upper bound in words, docstrings unwrapped
(`tidy_help`, applied by the app's group class)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from typer.core import TyperArgument, TyperOption


class _KamiOption(TyperOption):
    """An option as a well-kept CLI's help shows it: `--time-limit SECONDS`, `--engine [auto|cpsat|search]`,
    a flag with no metavar (typer's own `<bool>`, `<int range> [x>=1]` labels crowd the help at 80 columns;
    a range goes to the help text instead)."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None if self.is_flag else self.metavar

    def _get_number_range_help_str(self) -> str | None:
        return None


class _KamiArgument(TyperArgument):
    """An argument shown by its metavar alone: `kamicp solve [OPTIONS] LEVEL` (typer's own usage line reads
    `{LEVEL}`), `[PATHS]...` when optional."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def get_usage_pieces(self, ctx: Any) -> list[str]:
        name = self.metavar or self.name.upper()
        return [name if self.required else f"[{name}]"]


_TYPE_METAVARS = {int: "INTEGER", float: "NUMBER", str: "TEXT", Path: "PATH"}


def _metavar(param: TyperOption) -> str:
    """The metavar an option without one shows: its choices, or its type's name in click's words."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None and descriptor.is_choice:
        return "[" + "|".join(str(getattr(c, "value", c)) for c in descriptor.choices or ()) + "]"
    annotation = getattr(descriptor, "annotation", None)
    return _TYPE_METAVARS.get(annotation, "VALUE")  # type: ignore[arg-type]


def _range_words(param: TyperOption) -> str:
    """An upper bound worth a word in the help ("1 to 256"); a lower one (0, 1, a positive time) goes
    without saying."""
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if high is None:
        return ""
    return f"at most {high}" if low is None else f"{low} to {high}"


def unwrapped(text: str | None) -> str | None:
    """A docstring's paragraphs each on one line (rich wraps them to the terminal; a docstring's own line
    breaks would break the help mid-sentence)."""
    if not text:
        return text
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


def tidy_help(command: Any) -> None:
    """Give `command`'s help the conventions of the whole command line (see _KamiOption, _KamiArgument)."""
    command.help = unwrapped(command.help)
    if getattr(command, "short_help", None):
        command.short_help = unwrapped(command.short_help)
    for param in command.params:
        if isinstance(param, TyperOption) and type(param) is TyperOption:
            if not param.is_flag and param.metavar is None:
                param.metavar = _metavar(param)
            words = _range_words(param)
            if words and words not in (param.help or "") and not param.is_flag:
                param.help = f"{(param.help or '').rstrip()} ({words})".lstrip()
            param.__class__ = _KamiOption  # (the same object, with the help methods above)
        elif isinstance(param, TyperArgument) and type(param) is TyperArgument:
            param.__class__ = _KamiArgument
        if getattr(param, "help", None):
            param.help = unwrapped(param.help)
    made = command.get_help_option  # (--help is made when first asked for: tidied then)

    def get_help_option(ctx: Any) -> Any:
        option = made(ctx)
        if option is not None and type(option) is TyperOption:
            option.__class__ = _KamiOption
        return option

    command.get_help_option = get_help_option
