"""template.yaml read as the local stack needs it: the functions (code folder, handler), their
HTTP API routes, and the matches table as it is deployed (moto never deletes an expired item;
the host server's table file does)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]


class _CfnLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """YAML with CloudFormation's short tags read as plain values (enough to list resources), by libyaml
    where PyYAML has it (a tenth of the pure-Python parser's time)."""


_CfnLoader.add_multi_constructor("!", lambda loader, suffix, node: None)


def parsed_template(root: Path) -> dict[str, Any]:
    """template.yaml, parsed once a process for each text it has: every stack reads it three times,
    and parsing it (pure-Python YAML) was a quarter of what starting a stack cost."""
    return _parsed((root / "template.yaml").read_text())


@cache
def _parsed(template: str) -> dict[str, Any]:
    parsed: dict[str, Any] = yaml.load(template, Loader=_CfnLoader)
    return parsed


def _template_functions(root: Path) -> dict[str, dict[str, Any]]:
    """Logical id -> properties of every function in template.yaml."""
    template = parsed_template(root)
    return {
        name: resource["Properties"]
        for name, resource in template["Resources"].items()
        if isinstance(resource, dict) and resource.get("Type") == "AWS::Serverless::Function"
    }


def template_functions(root: Path = ROOT) -> dict[str, tuple[Path, str]]:
    """Logical id -> (code folder, handler) of every function in template.yaml."""
    return {
        name: (root / properties["CodeUri"], properties["Handler"])
        for name, properties in _template_functions(root).items()
    }


def template_table_ttl(root: Path = ROOT) -> dict[str, Any]:
    """The matches table's TimeToLiveSpecification in template.yaml (which attribute expires an item)."""
    template = parsed_template(root)
    specification: dict[str, Any] = template["Resources"]["MatchTable"]["Properties"]["TimeToLiveSpecification"]
    return specification


def create_match_table(dynamodb: Any, name: str = "matches") -> None:
    """The matches table as template.yaml deploys it (moto never deletes an expired item; the host
    server's table file does)."""
    dynamodb.create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": k, "AttributeType": "S"} for k in ("pk", "sk")],
        KeySchema=[
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"},
        ],
    )
    dynamodb.update_time_to_live(TableName=name, TimeToLiveSpecification=template_table_ttl())


def template_routes(root: Path = ROOT) -> dict[str, str]:
    """Route key ("POST /matches/{match_id}/...") -> the function's logical id, for every HttpApi
    event of every function in template.yaml: the routes the deployed HTTP API serves."""
    return {
        f"{event['Properties']['Method'].upper()} {event['Properties']['Path']}": name
        for name, properties in _template_functions(root).items()
        for event in (properties.get("Events") or {}).values()
        if event.get("Type") == "HttpApi"
    }
