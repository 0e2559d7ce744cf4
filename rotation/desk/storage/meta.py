"""The desk's own values: its secret."""

from __future__ import annotations

import secrets

from rotation.desk.storage.base import Connection


class Meta(Connection):
    def new_secret(self) -> str:
        """A new random key for the file: every key, cookie and CSRF token made from the old one stops working."""
        key = secrets.token_urlsafe(24)
        with self.change() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('secret', ?)", (key,))
        return key

    def secret(self) -> str:
        """A random key made once per file, so cookies and open pages outlive a restart."""
        with self.change() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()
            if row:
                return row[0]
            key = secrets.token_urlsafe(24)
            db.execute("INSERT INTO meta VALUES ('secret', ?)", (key,))
            return key
