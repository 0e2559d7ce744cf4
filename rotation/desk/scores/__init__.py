"""The desk's scores: table cards, games and standings (pages, JSON routes, service)."""
