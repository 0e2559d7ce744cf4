"""The desk's events: their settings, plans and schedule versions (pages, JSON routes, service)."""
