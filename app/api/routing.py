"""The route class of every router: a handler commits its transaction in its own thread.

``get_session`` commits when its dependency scope ends, and FastAPI ends it only after the
response has been validated, which for a plain ``def`` handler takes a thread of the worker's
pool again. A write holds the tournament's lock until its commit; with every thread of the
pool taken by writes waiting on that lock (the pool is as large as the connection pool,
``app.main``), the commit waited for a thread that none of them would give back before the
lock timeout, and they all answered 503 ``busy`` (30 late entries at once on one tournament:
20 refused). Committing as the handler returns, in the thread that ran it, frees the lock
before the response is validated. A handler that raises commits nothing; ``get_session``
rolls back.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from fastapi.routing import APIRoute
from sqlalchemy.orm import Session


class CommittingRoute(APIRoute):
    """An ``APIRoute`` whose plain handlers commit the request's session as they return."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        super().__init__(path, _committing(endpoint), **kwargs)


def _committing(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    if inspect.iscoroutinefunction(endpoint):
        return endpoint  # runs on the event loop, and so does its validation: no thread to wait for

    @functools.wraps(endpoint)  # FastAPI reads the handler's signature through __wrapped__
    def handle(*args: Any, **kwargs: Any) -> Any:
        answer = endpoint(*args, **kwargs)
        for value in kwargs.values():
            if isinstance(value, Session):
                value.commit()
        return answer

    return handle
