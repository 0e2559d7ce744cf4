"""The desk's room: released rounds, the players' page, the projector (pages, service)."""
