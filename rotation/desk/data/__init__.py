"""The desk's data kept safe and moved: backups (made by rotation.desk.storage.backup), an event exported
and imported (transfer), archived or deleted (pages and JSON routes)."""
