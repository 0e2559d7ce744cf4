"""The director's desk: `rotation serve`, a local web app over the same library as the command line.

storage   SQLite, every statement of it: events, schedule versions (each change a new one), planning
          runs, rooms, cards; one module per group of tables, typed records
settings  an event's settings as the director types them, and the messages beside each field
service   the small functions every page and every JSON endpoint calls
worker    the planning process: one per plan, progress to the database, SIGINT keeps the best
views     what a page shows: rounds, a player's day, the figures in a director's words
security  the secret, the CSRF token, the checks every request passes
app       the FastAPI application: HTML pages and JSON endpoints over the service
"""
