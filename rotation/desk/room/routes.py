"""The room's routers, as every feature exports them (rotation.desk.app includes them)."""

from rotation.desk.room import pages

ROUTERS = (pages.api, pages.router)
