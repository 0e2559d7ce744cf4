"""The director's desk: `rotation serve`, a local web app over the same library as the command line.

core      what storage, deps and every feature share and which imports none of them: an event's
          settings (as the director types them), the errors every action refuses with, the planner
storage   SQLite, every statement of it: events, schedule versions (each change a new one), planning
          runs, rooms, cards, backups; one module per group of tables, typed records
deps      what a route is given: the store, the planner, the templates, the CSRF-checked form
errors    how every refusal is answered: beside its field on a page, JSON for the JSON endpoints
security  the secret, the CSRF token, the checks every request passes
worker    the planning process: one per plan, progress to the database, SIGINT keeps the best
serve     `rotation serve`: the file, the address, the browser
app       the FastAPI application: HTML pages and JSON endpoints over the features' services

The features, each a package with its pages, JSON routes and service:
events    an event's plans, re-plans and schedule versions;
          views (what a page shows) and guards (what a change would undo of what the room has)
room      the rounds released to the room, the players' page, the projector
scores    table cards, games and standings
series    events played as the nights of one series
data      backups, an event exported and imported, archived or deleted
"""
