"""The series' routers, as every feature exports them (rotation.desk.app includes them)."""

from rotation.desk.series import pages

ROUTERS = (pages.api, pages.router)
