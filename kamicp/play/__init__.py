"""Play a level in the browser: `kamicp play LEVEL` (needs the optional extra kamicp[play]).

kamicp.play.server is the Starlette app and its uvicorn runner; kamicp.play.view turns a level into what
the page draws; kamicp/play/static holds the page (plain HTML, JS and CSS, no build step).
"""
