"""What the service accepts from outside, beyond each field's own rule.

A value has its JSON type: ``true`` is not 1 and ``"3"`` is not 3 (``JSON_NUMBER``,
``JSON_BOOLEAN``).

Text carries no control character (Unicode ``Cc``: ``U+0000``–``U+001F``, ``U+007F``–``U+009F``):
PostgreSQL cannot store NUL, and the others break the CSV export, the logs and the printed page
while never belonging in a name, a description or a URL. Integers that reach a query fit the
tables' ``INTEGER`` columns (32 bits on PostgreSQL; SQLite cannot even bind past 64 bits).
"""

from __future__ import annotations

from pydantic import BeforeValidator

NO_CONTROL_CHARACTERS = r"^[^\x00-\x1f\x7f-\x9f]*$"
"""A JSON-schema ``pattern``: text without control characters."""
TOURNAMENT_ID = r"^[A-Za-z0-9_-]{1,32}$"
"""Tournament ids are URL-safe random strings (``secrets.token_urlsafe``)."""
MAX_INTEGER = 2**31 - 1
"""The largest id, number or event id a query may bind (PostgreSQL's ``INTEGER``)."""


def _number(value: object) -> object:
    if isinstance(value, bool | str):
        raise ValueError("must be a JSON number")
    return value


def _boolean(value: object) -> object:
    if not isinstance(value, bool):
        raise ValueError("must be a JSON boolean")
    return value


JSON_NUMBER = BeforeValidator(_number)
"""On a number field: ``true`` and ``"3"`` are refused (lax pydantic reads them as 1 and 3);
``3.0`` is still the integer 3, as JSON Schema says."""
JSON_BOOLEAN = BeforeValidator(_boolean)
"""On a boolean field: ``1`` and ``"true"`` are refused."""
