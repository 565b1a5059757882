"""The deployment's own weak spots, as cfn-lint (tests/test_static_checks.py) and the SAM CLI's
`sam validate --lint` find them, and what scanners cannot see: who may use the stack's key, what
the HTTP API's access log holds, which subscriptions the host commands may change.

The SAM CLI runs from its own venv (.venv/tools/<name>/, bin/setup: pyproject.toml's
template-scan extra says why), offline: `sam validate` needs a region and no credentials."""

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


# -- the scanners -------------------------------------------------------------------------------------


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


def test_the_mail_function_has_reserved_concurrency() -> None:
    reserved = template()["Resources"]["EmailInFunction"]["Properties"]["ReservedConcurrentExecutions"]
    assert reserved == {"!If": ["ReservesMailConcurrency", {"!Ref": "MailConcurrency"}, {"!Ref": "AWS::NoValue"}]}
    assert template()["Parameters"]["MailConcurrency"]["Default"] > 0


def test_the_mail_bucket_outlives_the_stack_like_the_table() -> None:
    bucket = template()["Resources"]["InboundMailBucket"]
    assert (bucket["DeletionPolicy"], bucket["UpdateReplacePolicy"]) == ("Retain", "Retain")
