"""The scores' routers, as every feature exports them (rotation.desk.app includes them)."""

from rotation.desk.scores import api, pages, standings_pages

ROUTERS = (api.api, pages.router, standings_pages.router)
