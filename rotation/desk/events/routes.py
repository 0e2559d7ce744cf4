"""The events' routers, as every feature exports them (rotation.desk.app includes them)."""

from rotation.desk.events import api, pages, schedule_pages, settings_pages

# The settings' pages before the event's: /events/new is not an event's id (Starlette takes the first match).
ROUTERS = (api.api, settings_pages.router, pages.router, schedule_pages.router)
