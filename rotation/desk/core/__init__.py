"""The desk's core: what storage, the routes' dependencies (rotation.desk.deps) and every feature
(events, room, scores, series, data) share, and which imports none of them: an event's settings and their
form, the errors a desk action refuses with, and the planner's protocol."""
