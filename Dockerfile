# Svizzera: multi-stage build, runs as a non-root user.
# No Docker engine runs on the development machines: this file is kept consistent with
# README.md (same uvicorn command, same SVIZZERA_ variables, `alembic upgrade head` before the
# app) by reading, not by building. Check it with `docker build .` where Docker is available.

FROM python:3.12-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY app ./app
RUN python -m venv /opt/venv && /opt/venv/bin/pip install .

FROM python:3.12-slim AS runtime
RUN useradd --create-home --uid 10001 svizzera && mkdir /data && chown svizzera /data
COPY --from=build /opt/venv /opt/venv
WORKDIR /srv
COPY alembic.ini ./
COPY migrations ./migrations
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    SVIZZERA_DATABASE_URL=sqlite:////data/svizzera.db
USER svizzera
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=2)"]
# Migrate, then serve (docker-compose runs the migration as its own service first; running it
# again here is a no-op and keeps `docker run` on SQLite working alone).
CMD ["sh", "-c", "alembic upgrade head && exec uvicorn --factory app.main:create_app --host 0.0.0.0 --port 8000 --workers ${WORKERS:-4} --no-proxy-headers"]
