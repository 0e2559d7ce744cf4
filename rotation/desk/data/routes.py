"""The data's routers (backups, export, import), as every feature exports them (rotation.desk.app includes them)."""

from rotation.desk.data import pages

ROUTERS = (pages.api, pages.router)
