"""The desk's data kept safe and moved: backups, export and import (pages, JSON routes)."""
