"""How a solver Result is printed, under any rules: the moves, the proof table, the one-line summary, its
JSON and its exit code. The rules object says what it adds (`describe`, `data`); the rows say the rest."""

from __future__ import annotations

import os

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kamicp.board.level import Level
from kamicp.cli.console import out, plural, shown
from kamicp.cli.exits import EXIT_NEGATIVE, EXIT_OK, EXIT_UNKNOWN
from kamicp.cli.plans import about, describe_plan, duration
from kamicp.prover.estimate import Estimate
from kamicp.prover.outcome import EngineName, Outcome
from kamicp.prover.plan import cluster_plan
from kamicp.prover.request import Rules
from kamicp.prover.solver import NO_SOLUTION, OPTIMAL, Result
from kamicp.render.safe import printable
from kamicp.render.terminal import swatch


def moves_table(level: Level, result: Result) -> Table:
    table = Table(title=plural(len(result.moves), "move"), title_justify="left", show_edge=False)
    table.add_column("#", justify="right")
    table.add_column("tap" if level.geometry == "graph" else "tap (row, col)")
    table.add_column("colour")
    for k, move in enumerate(result.moves, start=1):
        table.add_row(str(k), Text(printable(level.format_label(move.cell))), swatch(level, move.colour))
    return table


def colours_table(level: Level, result: Result) -> Table:
    """The moves under rules where every move repaints the same region (Flood-It's pivot): only the colours
    differ."""
    table = Table(title=plural(len(result.moves), "move"), title_justify="left", show_edge=False)
    table.add_column("#", justify="right")
    table.add_column("pivot's region → colour")
    for k, move in enumerate(result.moves, start=1):
        table.add_row(str(k), swatch(level, move.colour))
    return table


def proof_table(result: Result) -> RenderableType:
    """One row per horizon (a run of implied ones as one row), short enough for an 80-column terminal:
    the reasons of the bound and implied rows are notes under the table."""
    table = Table(title="proof", title_justify="left", show_edge=False)
    table.add_column("moves", justify="right")
    table.add_column("result")
    table.add_column("seconds", justify="right")
    table.add_column("by")
    words = {"infeasible": "impossible (proven)", "feasible": "solved", "unknown": "unknown (time limit)"}
    notes: list[str] = []
    rows = result.proof_by_horizon()
    for i, h in enumerate(rows):
        if h.outcome == "implied":
            if i + 1 < len(rows) and rows[i + 1].outcome == "implied":
                continue  # one row for a run of implied horizons, at its top
            low = i
            while low > 0 and rows[low - 1].outcome == "implied":
                low -= 1
            span = str(h.steps) if low == i else f"{rows[low].steps}-{h.steps}"
            why = ("a solution within fewer moves is one within more" if h.engine == "cubes"
                   else "a solved board stays solved by one more move")
            table.add_row(span, f"impossible: implied by {h.steps + 1}", "-", h.engine)
            notes.append(f"implied by {h.steps + 1}: {why}")
        elif h.engine == EngineName.UNREACHABLE:  # (Flood-It: islands the flood cannot reach differ in colour)
            table.add_row("any", "impossible: regions the flood cannot reach differ in colour", "-", "bound")
        elif h.outcome == "bound" and result.bound is None:  # (Flood-It's bounds: no report of their parts)
            why = "layered bound" if result.engine == EngineName.ASTAR else "pivot bound (distance and colours left)"
            table.add_row(f"≤ {h.steps}", f"impossible: {why} {h.steps + 1}", "-", "bound")
        elif h.engine == EngineName.ASTAR and h.outcome == Outcome.INFEASIBLE:  # one A* run: every shorter one
            table.add_row(f"≤ {h.steps}", words[h.outcome], f"{h.seconds:.3f}", "astar")
        elif h.outcome == "bound":
            b = result.bound
            ring = " + 1 by the ring rule" if b.ring else ""
            radius = f"≥ {b.radius}" if b.cut else str(b.radius)  # (the time limit cut the radius search)
            table.add_row(f"≤ {h.steps}", f"impossible: lower bound {b.value}", "-", "bound")
            notes.append(f"bound {b.value}: radius {radius}{ring}; {b.colours} colours need "
                         f"{plural(b.colour_part, 'move')}; {plural(b.islands, 'island')}")
            if b.value > b.plain:  # (the parts above are one final colour's; the pivot game may raise the others)
                notes.append(f"the pivot game from far regions raises the bound from {b.plain}")
        else:
            table.add_row(str(h.steps), words[h.outcome], f"{h.seconds:.3f}", h.engine)
    return Group(table, *(Text(printable(note), style="dim") for note in notes))


def summary(result: Result) -> str:
    if result.status == OPTIMAL:
        n = len(result.moves)
        why = "shorter ones are proven impossible" if n else "the board is already one colour"
        return f"optimal: {plural(n, 'move')} ({why})"
    if result.status == NO_SOLUTION:
        tail = f"; the best solution found has {plural(result.upper_bound, 'move')}" if result.upper_bound else ""
        return f"no solution within {plural(result.max_steps or 0, 'move')} (proven){tail}"
    best = f", best solution found {plural(result.upper_bound, 'move')}" if result.upper_bound is not None else ""
    return f"unknown: time limit reached; optimum is at least {result.lower_bound}{best}"


def print_result(level: Level, result: Result, rules: Rules, *, show_moves: bool = True) -> None:
    """A solve's result: a line on the level and its rules, the moves, the proof, the summary and the time."""
    bound = "" if result.bound is None else f", lower bound {result.bound.value}"
    out.print(f"[bold]{shown(level.name or 'level')}[/]: {plural(result.regions, 'region')}, "
              f"{plural(result.colours, 'colour')}, {shown(rules.describe(level))}{bound}",
              highlight=result.bound is not None)  # (Flood-It's line, naming the pivot, unhighlighted as before)
    if result.moves and show_moves:
        out.print(moves_table(level, result) if rules.chooses_region else colours_table(level, result))
    out.print(proof_table(result))
    unreachable = any(h.engine == EngineName.UNREACHABLE for h in result.proof)
    out.print(f"[bold]{'no solution (proven)' if unreachable else summary(result)}[/]")
    out.print(f"total {result.seconds:.3f} s, engine {result.engine}")
    if result.estimate is not None:
        print_estimate(result.estimate, result.upper_bound)


PLAN_FROM = 600.0  # seconds of estimated work from which the cluster plan is printed (always in --json)


def print_estimate(estimate: Estimate, upper: int | None) -> None:
    """What the open horizon would cost the search, and what that means on a cluster (an estimate, never a
    bound); the horizons above it that the proof also needs are named, not estimated."""
    out.print(f"estimate (not a bound): refuting {plural(estimate.horizon, 'move')} needs about "
              f"{about(estimate.nodes)} search nodes, {duration(estimate.seconds)} on one core here "
              f"({estimate.method})", markup=False)
    if estimate.seconds >= PLAN_FROM:
        out.print(f"cluster plan for that horizon: "
                  f"{describe_plan(cluster_plan(estimate), here=os.cpu_count())}", markup=False,
                  soft_wrap=True)
    if upper is not None and upper - 1 > estimate.horizon:
        top = upper - 1
        above = f"{top}" if top == estimate.horizon + 1 else f"{estimate.horizon + 1}..{top}"
        out.print(f"the proof also needs horizon {above} (each costlier than the one below)", markup=False)


def result_data(level: Level, result: Result, rules: Rules) -> dict:
    """A solve's JSON: the result, then what the rules add (Flood-It: the rules and the pivot cell), and for
    an unknown answer with an estimate, its cluster plan."""
    plan = {} if result.estimate is None else {"plan": cluster_plan(result.estimate).to_dict()}
    return {**result.to_dict(level), **rules.data(level), **plan}


def exit_for(result: Result) -> int:
    return {OPTIMAL: EXIT_OK, NO_SOLUTION: EXIT_NEGATIVE}.get(result.status, EXIT_UNKNOWN)


