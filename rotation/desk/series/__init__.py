"""The desk's series: events played as one season (pages, JSON routes, service)."""
