"""Configuration, read from the environment (prefix ``SVIZZERA_``) when the app is built."""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    """Every setting of the service; see the configuration table of README.md."""

    model_config = SettingsConfigDict(env_prefix="SVIZZERA_", extra="forbid")

    database_url: str = Field(
        default="sqlite:///./svizzera.db",
        description="SQLAlchemy URL: a SQLite file or postgresql+psycopg://user@host/db",
    )
    create_key: str | None = Field(
        default=None,
        description="If set, creating a tournament needs `Authorization: Bearer <create_key>`",
    )
    cors_origins: Annotated[list[str], NoDecode] = Field(
        default=[],
        description="Origins whose pages may call the API (comma-separated); `*`: any, reads only",
    )
    forwarded_allow_ips: Annotated[list[str], NoDecode] = Field(
        default=[],
        description="Proxies (addresses, networks, or `*`) whose X-Forwarded-For is believed",
    )
    public_url: str | None = Field(
        default=None,
        description="The address the service is reached at from outside (https://host[/prefix]),"
        " for the pages' QR codes behind a proxy; unset: from the request's Host",
    )
    max_body_bytes: int = Field(default=1_048_576, description="Largest request body accepted")
    db_pool_size: int = Field(
        default=10, ge=1, description="Connections (PostgreSQL) and request threads per worker"
    )
    lock_timeout: float = Field(
        default=5.0,
        gt=0,
        description="Seconds a write waits for a lock or a connection before 503 `busy`",
    )
    statement_timeout: float = Field(
        default=30.0, gt=0, description="Seconds one PostgreSQL statement may run before 503"
    )
    read_cache_size: int = Field(
        default=256, description="Standings bodies kept per worker, by tournament version; 0: off"
    )
    pairing_timeout: float = Field(
        default=5.0,
        gt=0,
        description="Seconds of CPU time a round's pairing may use before a 503",
    )
    pairing_wall_timeout: float = Field(
        default=60.0,
        gt=0,
        description="Seconds on the clock a round's pairing may last, busy machine or not",
    )
    check_timeout: float = Field(
        default=30.0,
        gt=0,
        description="Seconds of CPU time a check (`POST /v1/check`) may use, all rounds together",
    )
    create_rate: int = Field(
        default=30, ge=0, description="Tournaments one client address may create a minute; 0: any"
    )
    report_rate: int = Field(
        default=30, ge=0, description="Result claims one client address may send a minute; 0: any"
    )
    report_board_rate: int = Field(
        default=10, ge=0, description="Result claims one board may take a minute; 0: any"
    )
    webhooks_per_tournament: int = Field(
        default=10, ge=1, description="Webhook endpoints one tournament, or one club, may have"
    )
    max_streams: int = Field(
        default=1000, ge=1, description="Event streams open at once in one worker"
    )
    sse_heartbeat: float = Field(
        default=15.0, gt=0, description="Seconds between heartbeat comments on an event stream"
    )
    sse_poll_interval: float = Field(
        default=0.5, gt=0, description="Seconds between looks for new events (NOTIFY's net)"
    )
    sse_max_duration: float = Field(
        default=3600.0, gt=0, description="Seconds an event stream stays open (clients resume)"
    )

    webhook_allow_private: bool | None = Field(
        default=None,
        description="Webhook URLs may reach loopback/private addresses; unset: only on SQLite",
    )
    webhook_worker: bool = Field(
        default=True, description="Run the webhook delivery worker inside each app process"
    )
    webhook_timeout: float = Field(
        default=5.0, gt=0, description="Seconds a webhook receiver gets to answer a delivery"
    )
    webhook_max_attempts: int = Field(
        default=8, ge=1, description="Attempts of a webhook delivery before it is marked failed"
    )
    webhook_backoff: float = Field(
        default=1.0, gt=0, description="Seconds before the first retry; doubled at each retry"
    )
    webhook_backoff_max: float = Field(
        default=300.0, gt=0, description="Longest wait between two attempts of a delivery"
    )
    webhook_poll_interval: float = Field(
        default=0.25, gt=0, description="Seconds between the delivery worker's looks for work"
    )

    @field_validator("create_key")
    @classmethod
    def _empty_means_unset(cls, value: str | None) -> str | None:
        return value or None

    @field_validator("public_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        if not value:
            return None
        parts = urlsplit(value)
        web = parts.scheme in ("http", "https") and parts.netloc
        if not web or parts.query or parts.fragment:
            raise ValueError("SVIZZERA_PUBLIC_URL must be an http(s) address, like https://host")
        return value.rstrip("/")

    @field_validator("cors_origins", "forwarded_allow_ips", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            return [origin.strip() for origin in value.split(",") if origin.strip()]
        return value

    @field_validator("cors_origins")
    @classmethod
    def _star_alone(cls, value: list[str]) -> list[str]:
        if "*" in value and len(value) > 1:
            raise ValueError("`*` (any origin, reads only) cannot be combined with origins")
        return [origin.rstrip("/") for origin in value]

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _addresses(cls, value: list[str]) -> list[str]:
        for proxy in value:
            if proxy != "*":
                ipaddress.ip_network(proxy, strict=False)  # a ValueError names the bad one
        return value

    @field_validator("webhook_allow_private", mode="before")
    @classmethod
    def _empty_means_default(cls, value: object) -> object:
        return None if value == "" else value

    @model_validator(mode="after")
    def _wall_bound_above_work(self) -> Settings:
        # The wall bound caps a pairing slowed by a busy machine; below the CPU budget it
        # would refuse work the CPU budget allows even on an idle one.
        if self.pairing_wall_timeout < self.pairing_timeout:
            raise ValueError(
                "SVIZZERA_PAIRING_WALL_TIMEOUT must be at least SVIZZERA_PAIRING_TIMEOUT"
            )
        return self

    def webhooks_may_reach_private(self) -> bool:
        """``SVIZZERA_WEBHOOK_ALLOW_PRIVATE``, or by default: yes on SQLite (local use) only."""
        if self.webhook_allow_private is not None:
            return self.webhook_allow_private
        return self.database_url.startswith("sqlite")


@lru_cache
def get_settings() -> Settings:
    return Settings()
