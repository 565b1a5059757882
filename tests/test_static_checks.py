"""Checks on what is deployed and on the code's shape: the template and the ASL lint clean, the
layer type-checks under mypy, the code is ruff clean and ruff formatted, the committed ASL (and the
template's state machines) are what the generator writes, and importing `games` and `match` loads
nothing of AWS (the import direction itself: tests/test_architecture.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from game_core.cli import asl, season_asl
from game_core.games import registry
from game_core.service.season import stages as season_stages

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
LAYER = ROOT / "layers" / "game_core" / "game_core"
ASL_FILES = sorted((ROOT / "statemachines").glob("*.asl.json"))
RUFF_PATHS = ("layers", "functions", "local_stack", "tests", "benchmarks")
"""What ruff checks and formats (its settings are pyproject.toml's [tool.ruff])."""
FORBIDDEN = (
    "boto3",
    "botocore",
    "moto",
    "aws_lambda_powertools",
    "game_core.aws",
    "game_core.service",
    "game_core.cli",
)
"""What the pure layers must never import."""


class CfnLoader(yaml.SafeLoader):
    """YAML with CloudFormation's short tags kept as {"!Tag": value}."""


def _tagged(loader: yaml.Loader, suffix: str, node: yaml.Node) -> dict:
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    return {f"!{suffix}": value}


CfnLoader.add_multi_constructor("!", _tagged)


def template() -> dict:
    loaded: dict = yaml.load((ROOT / "template.yaml").read_text(encoding="utf-8"), Loader=CfnLoader)
    return loaded


# -- lint -------------------------------------------------------------------------------------------


def test_cfn_lint_passes_on_the_template() -> None:
    run = subprocess.run([BIN / "cfn-lint", str(ROOT / "template.yaml")], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_passes_on_the_layer() -> None:
    # pyproject.toml's [tool.mypy] (found from the working directory) sets the plugin and strictness.
    run = subprocess.run(
        [sys.executable, "-m", "mypy", str(LAYER.relative_to(ROOT))], capture_output=True, text=True, cwd=ROOT
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_check_and_ruff_format_pass() -> None:
    check = subprocess.run(
        [sys.executable, "-m", "ruff", "check", *RUFF_PATHS], capture_output=True, text=True, cwd=ROOT
    )
    assert check.returncode == 0, check.stdout + check.stderr
    format_check = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", *RUFF_PATHS], capture_output=True, text=True, cwd=ROOT
    )
    assert format_check.returncode == 0, format_check.stdout + format_check.stderr


def test_there_is_an_asl_file_for_every_available_game_and_the_season() -> None:
    expected = sorted(f"{game}.asl.json" for game in (*registry.AVAILABLE, asl.SEASON))
    assert [path.name for path in ASL_FILES] == expected, asl.STALE


@pytest.mark.parametrize("path", ASL_FILES, ids=[path.stem for path in ASL_FILES])
def test_statelint_passes_on_the_asl(path: Path) -> None:
    run = subprocess.run([BIN / "statelint", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip() == "", run.stdout


# -- generated files are committed as generated ----------------------------------------------------


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_the_committed_asl_is_what_the_generator_writes(game_id: str) -> None:
    committed = asl.asl_path(ROOT, game_id).read_text(encoding="utf-8")
    assert committed == asl.render(game_id), f"statemachines/{game_id}.asl.json is {asl.STALE}"


def test_the_committed_season_asl_is_what_the_generator_writes() -> None:
    committed = asl.asl_path(ROOT, asl.SEASON).read_text(encoding="utf-8")
    assert committed == season_asl.render(), f"statemachines/season.asl.json is {asl.STALE}"


def test_every_stage_of_the_season_is_a_state_its_choice_routes_to() -> None:
    states = season_asl.definition()["States"]
    routed = {choice["StringEquals"]: choice["Next"] for choice in states["Next stage"]["Choices"]}
    assert routed == {stage: stage for stage in season_stages.STAGES}
    for stage in (*season_stages.MATCH_WAITS, *season_stages.TIMED_WAITS):
        assert states[stage]["Resource"].endswith("waitForTaskToken"), stage
    death_match = states[season_stages.DEATH_MATCHES]["ItemProcessor"]["States"]["Death Match"]
    assert death_match["Resource"].endswith("waitForTaskToken")
    # A stalled match stalls the season at once: its error is never retried
    assert states[season_stages.MAIN_MATCH]["Retry"][0] == {"ErrorEquals": ["MatchStalled"], "MaxAttempts": 0}


def test_match_asl_check_passes() -> None:
    run = subprocess.run([BIN / "match-asl", "--check", "--root", str(ROOT)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_every_phase_of_every_rule_set_is_a_state() -> None:
    for game_id in registry.AVAILABLE:
        game = registry.load(game_id)
        states = json.loads(asl.render(game_id))["States"]
        for rule_set in asl.rule_sets(game):
            for kind in game.timeline(game.Settings.model_validate({"rule_set": rule_set})):
                assert states[kind.name]["Resource"].endswith("waitForTaskToken"), (game_id, kind.name)


# -- the template deploys exactly the available games -----------------------------------------------


def test_the_template_has_one_state_machine_per_available_game() -> None:
    # (The Games parameter that once listed them gave way to a block match-asl writes from the
    # registry; this checks the result, whatever writes it.)
    resources = template()["Resources"]
    machines = {
        name: resource["Properties"]
        for name, resource in resources.items()
        if resource["Type"] == "AWS::Serverless::StateMachine"
    }
    season = machines.pop("SeasonStateMachine")
    assert season["DefinitionUri"] == "statemachines/season.asl.json"
    assert season["Name"] == {"!Sub": "${AWS::StackName}-season"}
    assert season["DefinitionSubstitutions"] == {"SeasonStepFunctionArn": {"!GetAtt": "SeasonStepFunction.Arn"}}
    assert season["Policies"][0] == {"LambdaInvokePolicy": {"FunctionName": {"!Ref": "SeasonStepFunction"}}}
    games = [
        properties["DefinitionUri"].removeprefix("statemachines/").removesuffix(".asl.json")
        for properties in machines.values()
    ]
    assert games == list(registry.AVAILABLE), f"template.yaml's state machines are {asl.STALE}"
    for properties, game_id in zip(machines.values(), games, strict=True):
        # The workflow adapter finds a game's machine as <STATE_MACHINE_ARN_PREFIX><game id>.
        assert properties["Name"] == {"!Sub": f"${{AWS::StackName}}-{game_id}"}
        assert properties["DefinitionSubstitutions"] == {"PhaseStepFunctionArn": {"!GetAtt": "PhaseStepFunction.Arn"}}
    prefix = template()["Globals"]["Function"]["Environment"]["Variables"]["STATE_MACHINE_ARN_PREFIX"]
    assert prefix["!Sub"].endswith(":stateMachine:${AWS::StackName}-")


# -- the stack: kept, observed, least privilege, bounded -------------------------------------------------


def resources_of(kind: str) -> dict[str, dict]:
    return {name: r for name, r in template()["Resources"].items() if r["Type"] == kind}


def statements(function: str) -> list[dict]:
    """The function's IAM statements (each SAM policy must be a plain statement, so it can be read)."""
    found = []
    for policy in template()["Resources"][function]["Properties"]["Policies"]:
        assert set(policy) == {"Statement"}, f"{function}: {policy} (a SAM policy template grants more than it says)"
        found += policy["Statement"]
    return found


def allowed(function: str) -> dict[str, list]:
    """Action -> the resources it is allowed on."""
    grants: dict[str, list] = {}
    for statement in statements(function):
        assert statement["Effect"] == "Allow"
        actions = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
        resources = statement["Resource"] if isinstance(statement["Resource"], list) else [statement["Resource"]]
        for action in actions:
            grants.setdefault(action, []).extend(resources)
    return grants


FUNCTIONS = (
    "SubmitWebhookFunction",
    "PhaseStepFunction",
    "HostCommandsFunction",
    "EmailInFunction",
    "WebhookDeliverFunction",
    "PlayerPageFunction",
    "SeasonStepFunction",
)


def test_the_table_outlives_the_stack() -> None:
    table = template()["Resources"]["MatchTable"]
    assert (table["DeletionPolicy"], table["UpdateReplacePolicy"]) == ("Retain", "Retain")


def test_every_function_is_arm64_traced_and_logs_to_a_group_with_retention() -> None:
    resources = template()["Resources"]
    function_globals = template()["Globals"]["Function"]
    assert function_globals["Architectures"] == ["arm64"] and function_globals["Tracing"] == "Active"
    layer = resources["GameCoreLayer"]
    assert layer["Properties"]["CompatibleArchitectures"] == ["arm64"]
    assert layer["Metadata"]["BuildArchitecture"] == "arm64"
    assert set(resources_of("AWS::Serverless::Function")) == set(FUNCTIONS)
    for name in FUNCTIONS:
        group = resources[name]["Properties"]["LoggingConfig"]["LogGroup"]["!Ref"]
        assert resources[group]["Type"] == "AWS::Logs::LogGroup"
        assert resources[group]["Properties"]["RetentionInDays"] == {"!Ref": "LogRetentionDays"}


def test_every_state_machine_is_traced_logs_no_execution_data_and_alarms_on_failure() -> None:
    resources = template()["Resources"]
    machines = resources_of("AWS::Serverless::StateMachine")
    alarms = resources_of("AWS::CloudWatch::Alarm")
    assert len(machines) == len(registry.AVAILABLE) + 1  # and the season's
    for name, machine in machines.items():
        properties = machine["Properties"]
        assert properties["Tracing"] == {"Enabled": True}
        logging = properties["Logging"]
        # Execution data holds the match's secrets: never logged.
        assert logging["Level"] in ("ERROR", "ALL") and logging["IncludeExecutionData"] is False
        group = logging["Destinations"][0]["CloudWatchLogsLogGroup"]["LogGroupArn"]["!GetAtt"].removesuffix(".Arn")
        assert resources[group]["Properties"]["RetentionInDays"] == {"!Ref": "LogRetentionDays"}
        watching = [
            a["Properties"]
            for a in alarms.values()
            if {"Name": "StateMachineArn", "Value": {"!Ref": name}} in a["Properties"]["Dimensions"]
        ]
        assert len(watching) == 1, name
        alarm = watching[0]
        assert (alarm["Namespace"], alarm["MetricName"]) == ("AWS/States", "ExecutionsFailed")
        assert (alarm["Threshold"], alarm["ComparisonOperator"]) == (1, "GreaterThanOrEqualToThreshold")
        assert alarm["AlarmActions"] == [{"!Ref": "HostAlertsTopic"}]


def test_each_function_may_do_only_what_it_does() -> None:
    table = {"!GetAtt": "MatchTable.Arn"}
    topics = {name: {"!Ref": name} for name in ("PublicNotices", "PrivateNotices", "HostAlertsTopic")}
    grants = {name: allowed(name) for name in FUNCTIONS}
    for name, granted in grants.items():
        assert not [a for a in granted if a.endswith(("*", ":Scan", ":BatchWriteItem"))], (name, granted)
        for action, resources in granted.items():
            if action.startswith("dynamodb:"):
                assert resources == [table], (name, action)
    # Only the webhook deletes: Powertools' idempotency removes its in-progress record on a failure.
    assert [name for name, granted in grants.items() if "dynamodb:DeleteItem" in granted] == []
    # Publishing: the webhook never publishes; only the phase steps alert the host.
    assert "sns:Publish" not in grants["SubmitWebhookFunction"]
    assert grants["PhaseStepFunction"]["sns:Publish"] == list(topics.values())
    assert grants["SeasonStepFunction"]["sns:Publish"] == list(topics.values())  # a match's notices; a stall's alert
    assert grants["HostCommandsFunction"]["sns:Publish"] == [topics["PublicNotices"], topics["PrivateNotices"]]
    assert grants["EmailInFunction"]["sns:Publish"] == list(topics.values())  # a mail given up on: the host told
    # Mail goes out only from the match domain, and never from the webhook
    identity = {"!Sub": "arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:identity/${MailDomain}"}
    mailers = [name for name, granted in grants.items() if "ses:SendEmail" in granted]
    assert mailers == ["PhaseStepFunction", "HostCommandsFunction", "EmailInFunction", "SeasonStepFunction"]
    assert all(grants[name]["ses:SendEmail"] == [identity] for name in mailers)
    env = template()["Resources"]["PhaseStepFunction"]["Properties"]["Environment"]["Variables"]
    assert env["HOST_TOPIC_ARN"] == {"!Ref": "HostAlertsTopic"}
    # Starting executions: only the stack's own state machines, by the host (create, recover) and
    # by the phase step (a long-lived match handed on to a fresh execution: service/matches/handover.py).
    machines = {
        "!Sub": "arn:${AWS::Partition}:states:${AWS::Region}:${AWS::AccountId}:stateMachine:${AWS::StackName}-*"
    }
    assert grants["HostCommandsFunction"]["states:StartExecution"] == [machines]
    assert grants["PhaseStepFunction"]["states:StartExecution"] == [machines]
    assert grants["SeasonStepFunction"]["states:StartExecution"] == [machines]  # each match of a season
    # Only a match's steps fail a task: the season's wait on a match that stalled
    assert [name for name, granted in grants.items() if "states:SendTaskFailure" in granted] == ["PhaseStepFunction"]
    # The page takes what the webhook takes (a move is a submission, a sign-in a read) and no more:
    # the table, the task token that closes a phase early, the webhook queue. Written out, not
    # copied from the webhook's, so a grant added to either is seen here.
    assert grants["PlayerPageFunction"] == {
        **{
            f"dynamodb:{action}": [table]
            for action in ("GetItem", "BatchGetItem", "Query", "PutItem", "UpdateItem", "ConditionCheckItem")
        },
        "states:SendTaskSuccess": ["*"],
        "sqs:SendMessage": [{"!GetAtt": "WebhookQueue.Arn"}],
    }
    starters = ("SubmitWebhookFunction", "EmailInFunction", "PlayerPageFunction")
    assert not any("states:StartExecution" in grants[name] for name in starters)
    # Webhooks out: every telling function may queue deliveries; the delivery function reads the
    # table, queues a retry's copy or a dead letter, and alerts the host, and nothing more
    queue, dead = {"!GetAtt": "WebhookQueue.Arn"}, {"!GetAtt": "WebhookDeadLetters.Arn"}
    redriver = "HostCommandsFunction"  # and the mail queue (below)
    assert all(grants[name]["sqs:SendMessage"][:1] == [queue] for name in FUNCTIONS[:4])
    assert all(len(grants[name]["sqs:SendMessage"]) == 1 for name in FUNCTIONS[:4] if name != redriver)
    assert grants["WebhookDeliverFunction"] == {
        "dynamodb:GetItem": [table],
        "dynamodb:BatchGetItem": [table],
        "sqs:SendMessage": [queue, dead],
        "sns:Publish": [topics["HostAlertsTopic"]],
        "kms:GenerateDataKey": [{"!GetAtt": "DataKey.Arn"}],  # the alerts topic is encrypted
        "kms:Decrypt": [{"!GetAtt": "DataKey.Arn"}],
    }
    # Mail in: the mail function puts off a failed mail's next try; the host's redrive moves the
    # dead letters back to the queue; nothing else touches either queue
    mail_queue, mail_dead = {"!GetAtt": "MailQueue.Arn"}, {"!GetAtt": "MailDeadLetters.Arn"}
    assert grants["EmailInFunction"]["sqs:ChangeMessageVisibility"] == [mail_queue]
    assert grants["HostCommandsFunction"]["sqs:ReceiveMessage"] == [mail_dead]
    assert grants["HostCommandsFunction"]["sqs:DeleteMessage"] == [mail_dead]
    assert grants["HostCommandsFunction"]["sqs:ChangeMessageVisibility"] == [mail_dead]
    assert grants["HostCommandsFunction"]["sqs:GetQueueAttributes"] == [mail_dead]
    assert grants["HostCommandsFunction"]["sqs:SendMessage"] == [queue, mail_queue]


def test_webhook_deliveries_report_partial_failures_and_a_dead_letter_raises_an_alarm() -> None:
    resources = template()["Resources"]
    function = resources["WebhookDeliverFunction"]["Properties"]
    source = function["Events"]["Deliveries"]["Properties"]
    assert source["Queue"] == {"!GetAtt": "WebhookQueue.Arn"}
    assert source["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    queue = resources["WebhookQueue"]["Properties"]
    assert queue["VisibilityTimeout"] >= 6 * function["Timeout"]  # as Lambda's SQS event source asks
    assert queue["RedrivePolicy"]["deadLetterTargetArn"] == {"!GetAtt": "WebhookDeadLetters.Arn"}
    alarm = resources["WebhookDeadLettersAlarm"]["Properties"]
    assert alarm["Dimensions"] == [{"Name": "QueueName", "Value": {"!GetAtt": "WebhookDeadLetters.QueueName"}}]
    assert (alarm["Threshold"], alarm["AlarmActions"]) == (1, [{"!Ref": "HostAlertsTopic"}])


def test_received_mail_is_stored_encrypted_private_briefly_and_read_by_the_mail_function_alone() -> None:
    resources = template()["Resources"]
    bucket = resources["InboundMailBucket"]["Properties"]
    [encryption] = bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"]
    assert encryption["ServerSideEncryptionByDefault"]["SSEAlgorithm"] in ("AES256", "aws:kms")
    assert (
        set(bucket["PublicAccessBlockConfiguration"].values()) == {True}
        and len(bucket["PublicAccessBlockConfiguration"]) == 4
    )
    [expiry] = bucket["LifecycleConfiguration"]["Rules"]
    assert expiry["Status"] == "Enabled" and 1 <= expiry["ExpirationInDays"] <= 7
    # SES alone may store mail there, for this account's receipt rule; nothing reaches it but by TLS
    policy = resources["InboundMailBucketPolicy"]["Properties"]
    assert policy["Bucket"] == {"!Ref": "InboundMailBucket"}
    allow, deny = policy["PolicyDocument"]["Statement"]
    assert (allow["Effect"], allow["Principal"], allow["Action"]) == (
        "Allow",
        {"Service": "ses.amazonaws.com"},
        "s3:PutObject",
    )
    assert allow["Resource"] == {"!Sub": "${InboundMailBucket.Arn}/*"}
    assert allow["Condition"]["StringEquals"]["AWS:SourceAccount"] == {"!Ref": "AWS::AccountId"}
    rule_set = resources["InboundMailRuleSet"]["Properties"]["RuleSetName"]["!Sub"]
    rule = resources["InboundMailRule"]["Properties"]
    account = "arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}"
    rule_arn = f"{account}:receipt-rule-set/{rule_set}:receipt-rule/{rule['Rule']['Name']['!Sub']}"
    assert allow["Condition"]["StringEquals"]["AWS:SourceArn"] == {"!Sub": rule_arn}
    assert (deny["Effect"], deny["Condition"]) == ("Deny", {"Bool": {"aws:SecureTransport": False}})
    # The receipt rule stores each message, then tells the mail function's topic
    assert rule["Rule"]["Actions"] == [
        {"S3Action": {"BucketName": {"!Ref": "InboundMailBucket"}, "TopicArn": {"!Ref": "InboundMail"}}}
    ]
    assert "InboundMailBucketPolicy" in resources["InboundMailRule"]["DependsOn"]
    # The topic queues each notification as it is, for the mail function's queue alone
    [subscription] = [
        r
        for r in resources_of("AWS::SNS::Subscription").values()
        if r["Properties"]["TopicArn"] == {"!Ref": "InboundMail"}
    ]
    assert subscription["Properties"]["Endpoint"] == {"!GetAtt": "MailQueue.Arn"}
    assert subscription["Properties"]["RawMessageDelivery"] is True
    events = resources["EmailInFunction"]["Properties"]["Events"]
    assert [event["Properties"]["Queue"] for event in events.values()] == [{"!GetAtt": "MailQueue.Arn"}]
    # Only the mail function reads it: each message, and whether one is there
    readers = {name: {a: r for a, r in allowed(name).items() if a.startswith("s3:")} for name in FUNCTIONS}
    assert {name: grants for name, grants in readers.items() if grants} == {
        "EmailInFunction": {
            "s3:GetObject": [{"!Sub": "${InboundMailBucket.Arn}/*"}],
            "s3:ListBucket": [{"!GetAtt": "InboundMailBucket.Arn"}],
        }
    }


def test_the_phase_steps_have_reserved_concurrency_and_the_webhook_route_is_throttled() -> None:
    resources = template()["Resources"]
    reserved = resources["PhaseStepFunction"]["Properties"]["ReservedConcurrentExecutions"]
    assert reserved == {
        "!If": ["ReservesPhaseStepConcurrency", {"!Ref": "PhaseStepConcurrency"}, {"!Ref": "AWS::NoValue"}]
    }
    assert template()["Parameters"]["PhaseStepConcurrency"]["Default"] > 0
    event = resources["SubmitWebhookFunction"]["Properties"]["Events"]["Submit"]["Properties"]
    api = resources[event["ApiId"]["!Ref"]]
    assert api["Type"] == "AWS::Serverless::HttpApi"
    throttle = api["Properties"]["DefaultRouteSettings"]
    assert throttle["ThrottlingBurstLimit"] > 0 and throttle["ThrottlingRateLimit"] > 0


# -- import direction ---------------------------------------------------------------------------------


def test_importing_every_game_and_the_match_layer_loads_nothing_of_aws() -> None:
    # The import direction (tests/test_architecture.py) at run time: whatever the imports pull in.
    modules = [
        "game_core.match.engine",
        "game_core.match.replay",
        "game_core.match.clock",
        "game_core.match.model",
    ]
    modules += [f"game_core.games.{game_id}" for game_id in registry.AVAILABLE]
    script = textwrap.dedent(
        f"""
        import importlib, json, sys
        for name in {modules!r}:
            importlib.import_module(name)
        print(json.dumps(sorted(sys.modules)))
        """
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    loaded = json.loads(run.stdout)
    bad = [name for name in loaded if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)]
    assert bad == []


def test_the_registry_imports_a_game_only_when_it_is_used() -> None:
    script = textwrap.dedent(
        """
        import json, sys
        from game_core.games import registry
        before = sorted(m for m in sys.modules if m.startswith("game_core.games."))
        registry.load("crates")
        after = sorted(m for m in sys.modules if m.startswith("game_core.games."))
        print(json.dumps([before, after]))
        """
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    before, after = json.loads(run.stdout)
    assert not any(name.startswith(tuple(f"game_core.games.{g}" for g in registry.AVAILABLE)) for name in before)
    assert "game_core.games.crates" in after
    assert not any(name.startswith(("game_core.games.palindrome", "game_core.games.abstrac")) for name in after)
