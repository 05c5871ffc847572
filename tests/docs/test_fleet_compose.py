"""docs/fleet/compose.yaml: PostgreSQL and an OpenTelemetry collector, as docs/fleet.md says.

No container engine runs here, so the file is checked for what the page promises: the two
services, the password taken from the environment (never written in the file), the ports the
workers' configuration names, and a collector configuration whose pipelines take OTLP.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

FLEET = Path(__file__).resolve().parents[2] / "docs" / "fleet"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((FLEET / name).read_text("utf-8"))
    return data


def test_the_compose_file_runs_postgres_and_a_collector() -> None:
    services = load("compose.yaml")["services"]
    assert set(services) == {"postgres", "otel-collector"}
    postgres = services["postgres"]
    assert postgres["image"].startswith("postgres:")
    assert "5432:5432" in postgres["ports"]
    assert postgres["environment"]["POSTGRES_PASSWORD"].startswith("${TOOLDECK_PG_PASSWORD:?")
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    collector = services["otel-collector"]
    assert "4318:4318" in collector["ports"]
    mounted = {volume.split(":")[0] for volume in collector["volumes"]}
    assert "./otel-collector.yaml" in mounted and (FLEET / "otel-collector.yaml").is_file()


def test_the_collector_takes_otlp_over_http_into_every_pipeline() -> None:
    config = load("otel-collector.yaml")
    assert config["receivers"]["otlp"]["protocols"]["http"]["endpoint"].endswith(":4318")
    pipelines = config["service"]["pipelines"]
    assert set(pipelines) == {"traces", "metrics", "logs"}
    for pipeline in pipelines.values():
        assert pipeline["receivers"] == ["otlp"]
        assert all(name in config["exporters"] for name in pipeline["exporters"])
