"""What the service accepts from outside, beyond each field's own rule.

Text carries no control character (Unicode ``Cc``: ``U+0000``–``U+001F``, ``U+007F``–``U+009F``):
PostgreSQL cannot store NUL, and the others break the CSV export, the logs and the printed page
while never belonging in a name, a description or a URL. Integers that reach a query fit the
tables' ``INTEGER`` columns (32 bits on PostgreSQL; SQLite cannot even bind past 64 bits).
"""

from __future__ import annotations

NO_CONTROL_CHARACTERS = r"^[^\x00-\x1f\x7f-\x9f]*$"
"""A JSON-schema ``pattern``: text without control characters."""
TOURNAMENT_ID = r"^[A-Za-z0-9_-]{1,32}$"
"""Tournament ids are URL-safe random strings (``secrets.token_urlsafe``)."""
MAX_INTEGER = 2**31 - 1
"""The largest id, number or event id a query may bind (PostgreSQL's ``INTEGER``)."""
