"""A face: play a level in the browser, `kamicp play LEVEL` (needs the optional extra kamicp[play]).

kamicp.play.server is the Starlette app; kamicp.play.serving runs it under uvicorn with its limits;
kamicp.play.sessions keeps the levels by token; kamicp.play.jobs runs solves behind bounded gates;
kamicp.play.guard checks Host, Origin and Content-Type; kamicp.play.view turns a level into what the page
draws; kamicp/play/static holds the page (plain HTML, JS and CSS, no build step).

May import everything (it is a face). Starlette and uvicorn are imported only by `server` and `serving`,
so the package itself loads neither: its public face is these modules, imported by name.
"""

__all__ = ["guard", "jobs", "server", "serving", "sessions", "view"]
