"""The desk's own values: its secret."""

from __future__ import annotations

import secrets

from rotation.desk.storage.base import Connection


class Meta(Connection):
    def secret(self) -> str:
        """A random key made once per file, so cookies and open pages outlive a restart."""
        with self.change() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()
            if row:
                return row[0]
            key = secrets.token_urlsafe(24)
            db.execute("INSERT INTO meta VALUES ('secret', ?)", (key,))
            return key
