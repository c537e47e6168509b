"""What the logs may show: never a secret.

A request's query string may carry a token (a URL pasted with ``?token=…``, a webhook URL with
its receiver's key), so uvicorn's access log shows the path alone. The SQL of a failed
statement is logged without its parameters (``hide_parameters`` in ``app.db.make_engine``):
they hold token hashes, webhook secrets and URLs.
"""

from __future__ import annotations

import logging

ACCESS_LOGGER = "uvicorn.access"


class DropQueryString(logging.Filter):
    """Cuts the query string off the path of uvicorn's access log line
    (``'%s - "%s %s HTTP/%s" %d'``: client, method, path with query, version, status)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], args[2].split("?", 1)[0], *args[3:])
        return True


def hide_query_strings() -> None:
    """Install ``DropQueryString`` on uvicorn's access logger, once per process. Called by
    ``create_app``, so every way of serving the app (``make run``, the Dockerfile, compose,
    several workers) gets it after uvicorn has configured its logging."""
    logger = logging.getLogger(ACCESS_LOGGER)
    if not any(isinstance(f, DropQueryString) for f in logger.filters):
        logger.addFilter(DropQueryString())
