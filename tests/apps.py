"""The app of a test in process: ``create_app(settings)``, with its route table shared.

FastAPI builds an included router's routes (their dependencies, parameter models and response
fields) the first time a request reaches them, once per app: about 80 ms of CPU for our routers,
paid again by every test's fresh app, and most in-process tests only make a few requests. That
table depends only on the routers and on the settings, not on the database or anything a
request changes, so the apps of one process made with the same settings (the database apart)
share the first one's. Everything else is the test's own: the app is a new ``create_app``, with
its own engine, event hub, read cache, middleware and handlers. (The shared routes name the
first app as their ``dependency_overrides_provider``; no test overrides dependencies.)
"""

from __future__ import annotations

from fastapi import FastAPI
from starlette.routing import BaseRoute

from app.main import create_app
from app.settings import Settings

_BUILT: dict[str, list[BaseRoute]] = {}
"""The first app's routes, by its settings without ``database_url``."""


def make_app(settings: Settings) -> FastAPI:
    """``create_app(settings)`` whose included routers are those of an earlier app of this
    process with the same settings (the database apart), already built."""
    app = create_app(settings)
    key = settings.model_dump_json(exclude={"database_url"})
    built = _BUILT.setdefault(key, list(app.router.routes))
    routes = app.router.routes
    same_shape = len(built) == len(routes) and all(
        getattr(mine, "original_router", None) is getattr(theirs, "original_router", None)
        for mine, theirs in zip(routes, built, strict=True)
    )
    if same_shape:
        for index, route in enumerate(routes):
            # Only the included routers (FastAPI's lazily built part): the app's own routes
            # (OpenAPI, docs, static files) stay this app's.
            if getattr(route, "original_router", None) is not None:
                routes[index] = built[index]
    return app
