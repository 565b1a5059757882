"""The deployment's own weak spots, as checkov, cfn-lint (tests/test_static_checks.py) and the SAM
CLI's `sam validate --lint` find them, and what those scanners cannot see: who may use the stack's
key, what the HTTP API's access log holds, which subscriptions the host commands may change.

checkov and the SAM CLI run from their own venvs (.venv/tools/<name>/, bin/setup: pyproject.toml's
template-scan extra says why), offline: checkov downloads nothing (--skip-download), `sam validate`
needs a region and no credentials. Every check checkov skips is written in the skipped resource's
Metadata with its reason, and nowhere else."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from test_static_checks import BIN, FUNCTIONS, ROOT, allowed, resources_of, template

TOOLS = BIN.parent / "tools"
DATA_KEY = {"!GetAtt": "DataKey.Arn"}
KEY_USE = ["kms:GenerateDataKey", "kms:Decrypt"]
"""What a publisher to an encrypted topic, or a reader of encrypted mail, needs of the key."""


def tool(name: str, command: str) -> Path:
    path = TOOLS / name / "bin" / command
    assert path.exists(), f"{path} is missing: run bin/setup (it installs pyproject.toml's template-scan tools)"
    return path


def checkov_results() -> dict:
    run = subprocess.run(
        [tool("checkov", "checkov"), "--file", "template.yaml", "--framework", "cloudformation"]
        + ["--skip-download", "--output", "json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.stdout.strip(), run.stderr
    return json.loads(run.stdout)["results"]


def described(checks: list[dict]) -> list[str]:
    return [f"{check['check_id']} {check['resource']}: {check['check_name']}" for check in checks]


def metadata_skips() -> dict[tuple[str, str], str]:
    """(resource, check id) -> the reason written in the resource's Metadata."""
    skips = {}
    for name, resource in template()["Resources"].items():
        for skip in resource.get("Metadata", {}).get("checkov", {}).get("skip", []):
            skips[(name, skip["id"])] = skip["comment"]
    return skips


# -- the scanners -------------------------------------------------------------------------------------


def test_checkov_finds_no_weak_spot_and_skips_only_what_the_template_explains() -> None:
    results = checkov_results()
    assert results["failed_checks"] == [], "\n".join(described(results["failed_checks"]))
    skipped = {(check["resource"].split(".")[-1], check["check_id"]) for check in results["skipped_checks"]}
    written = metadata_skips()
    # Each skip checkov made is one the template writes, and each written one names a check that
    # checkov runs on that resource (a mistyped id or a check checkov dropped shows here).
    assert skipped == set(written)
    assert all(len(reason.split()) >= 5 for reason in written.values()), written


def test_sam_validate_lint_passes_offline(tmp_path: Path) -> None:
    # No credentials at all: `sam validate` must not need an AWS account (a region names the
    # partition the SAM transform writes ARNs for).
    env = {key: value for key, value in os.environ.items() if not key.startswith("AWS_")}
    env |= {"AWS_DEFAULT_REGION": "us-east-1", "SAM_CLI_TELEMETRY": "0", "HOME": str(tmp_path)}
    run = subprocess.run(
        [tool("aws-sam-cli", "sam"), "validate", "--lint", "--template", "template.yaml"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "is a valid SAM Template" in run.stdout


# -- what the scanners do not see ---------------------------------------------------------------------


def test_the_http_api_logs_each_request_by_named_fields_and_never_a_header_cookie_or_body() -> None:
    resources = template()["Resources"]
    settings = resources["WebhookApi"]["Properties"]["AccessLogSettings"]
    group = settings["DestinationArn"]["!GetAtt"].removesuffix(".Arn")
    assert resources[group]["Properties"]["RetentionInDays"] == {"!Ref": "LogRetentionDays"}
    logged = json.loads(settings["Format"])
    # The fields the README names for operators, each one context variable (worked from API
    # Gateway's $context reference, not read back from the template).
    assert logged == {
        "requestId": "$context.requestId",
        "time": "$context.requestTime",
        "sourceIp": "$context.identity.sourceIp",
        "method": "$context.httpMethod",
        "routeKey": "$context.routeKey",
        "path": "$context.path",
        "status": "$context.status",
        "responseLength": "$context.responseLength",
        "responseLatency": "$context.responseLatency",
        "integrationStatus": "$context.integrationStatus",
        "integrationError": "$context.integrationErrorMessage",
        "error": "$context.error.message",
    }


def test_every_log_group_and_every_private_topic_is_encrypted_with_the_stacks_key() -> None:
    resources = template()["Resources"]
    groups = resources_of("AWS::Logs::LogGroup")
    assert groups and all(group["Properties"]["KmsKeyId"] == DATA_KEY for group in groups.values())
    encrypted = {
        name: topic["Properties"].get("KmsMasterKeyId") for name, topic in resources_of("AWS::SNS::Topic").items()
    }
    # Only the public announcements are left in the clear (their Metadata says why).
    assert encrypted == {
        "PublicNotices": None,
        "PrivateNotices": {"!Ref": "DataKey"},
        "HostAlertsTopic": {"!Ref": "DataKey"},
        "InboundMail": {"!Ref": "DataKey"},
    }
    [bucket_encryption] = resources["InboundMailBucket"]["Properties"]["BucketEncryption"][
        "ServerSideEncryptionConfiguration"
    ]
    assert bucket_encryption["ServerSideEncryptionByDefault"] == {"SSEAlgorithm": "aws:kms", "KMSMasterKeyID": DATA_KEY}
    assert resources["DataKey"]["Properties"]["EnableKeyRotation"] is True


def key_statement(principal: str | dict) -> dict:
    statements = template()["Resources"]["DataKey"]["Properties"]["KeyPolicy"]["Statement"]
    [statement] = [s for s in statements if s["Principal"] == {"Service": principal}]
    assert statement["Effect"] == "Allow"
    return statement


def test_the_key_lets_ses_alarms_and_logs_write_for_this_account_only() -> None:
    this_account = {"StringEquals": {"aws:SourceAccount": {"!Ref": "AWS::AccountId"}}}
    # SES stores received mail in the SSE-KMS bucket (S3 asks KMS for a data key as SES) and
    # publishes its notification to the encrypted mail topic: both need a data key and Decrypt.
    ses = key_statement("ses.amazonaws.com")
    assert set(ses["Action"]) == {"kms:GenerateDataKey*", "kms:Decrypt"}
    assert ses["Condition"] == this_account
    # The alarms publish to the encrypted host alerts topic.
    alarms = key_statement("cloudwatch.amazonaws.com")
    assert set(alarms["Action"]) == {"kms:GenerateDataKey*", "kms:Decrypt"}
    assert alarms["Condition"] == this_account
    logs = key_statement({"!Sub": "logs.${AWS::Region}.amazonaws.com"})
    context = logs["Condition"]["ArnLike"]["kms:EncryptionContext:aws:logs:arn"]
    assert context == {"!Sub": "arn:${AWS::Partition}:logs:${AWS::Region}:${AWS::AccountId}:log-group:*"}
    # The receipt rule still stores the mail in that bucket and tells that topic.
    rule = template()["Resources"]["InboundMailRule"]["Properties"]["Rule"]
    assert rule["Actions"][0]["S3Action"] == {
        "BucketName": {"!Ref": "InboundMailBucket"},
        "TopicArn": {"!Ref": "InboundMail"},
    }


def test_exactly_the_functions_that_publish_to_an_encrypted_topic_or_read_mail_may_use_the_key() -> None:
    encrypted_topics = [{"!Ref": name} for name in ("PrivateNotices", "HostAlertsTopic", "InboundMail")]
    for name in FUNCTIONS:
        granted = allowed(name)
        publishes = any(topic in granted.get("sns:Publish", []) for topic in encrypted_topics)
        reads_mail = "s3:GetObject" in granted
        uses_key = {action: granted[action] for action in granted if action.startswith("kms:")}
        assert uses_key == ({action: [DATA_KEY] for action in KEY_USE} if publishes or reads_mail else {}), name


def test_the_host_commands_change_only_the_subscriptions_of_the_projects_topics() -> None:
    granted = allowed("HostCommandsFunction")
    # A subscription's ARN is its topic's ARN, a colon and the subscription's id.
    subscriptions = [{"!Sub": "${PublicNotices}:*"}, {"!Sub": "${PrivateNotices}:*"}]
    assert granted["sns:GetSubscriptionAttributes"] == subscriptions
    assert granted["sns:SetSubscriptionAttributes"] == subscriptions


def test_the_mail_function_has_reserved_concurrency_and_its_queue_no_more_pollers() -> None:
    function = template()["Resources"]["EmailInFunction"]["Properties"]
    reserved = {"!Ref": "MailConcurrency"}
    assert function["ReservedConcurrentExecutions"] == {
        "!If": ["ReservesMailConcurrency", reserved, {"!Ref": "AWS::NoValue"}]
    }
    assert template()["Parameters"]["MailConcurrency"]["Default"] > 0
    # More pollers than reserved instances would be throttled, and a throttled batch returns to
    # the queue having spent a try of each of its mails.
    [source] = function["Events"].values()
    assert source["Type"] == "SQS"
    assert source["Properties"]["ScalingConfig"] == {
        "!If": ["ReservesMailConcurrency", {"MaximumConcurrency": reserved}, {"!Ref": "AWS::NoValue"}]
    }


def test_the_mail_bucket_outlives_the_stack_like_the_table() -> None:
    bucket = template()["Resources"]["InboundMailBucket"]
    assert (bucket["DeletionPolicy"], bucket["UpdateReplacePolicy"]) == ("Retain", "Retain")
