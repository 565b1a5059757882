"""Write each game's state machine (ASL) from its timeline.

    match-asl              rewrite statemachines/<game>.asl.json and template.yaml's state machines
    match-asl --check      exit 1 if a committed file differs from what would be written

Each phase of the timeline (every rule set's) is a state of that name: it waits on a task token
for the phase's remaining time. A host act or early close wakes it; either way the clock is read
again and the phase resolves when due, or the machine waits again. "Next phase" routes to the
state named by the match's open phase, so fixed timelines and move loops share one shape.
"""

from __future__ import annotations

import json
import sys
import typing
from pathlib import Path
from typing import Any

from game_core.cli import season_asl
from game_core.cli.asl_parts import BACKOFF
from game_core.cli.failures import OneLineParser, one_line_errors
from game_core.games import registry
from game_core.games.protocol import AnyGame
from game_core.service.matches.handover import LOOPS_PER_EXECUTION
from game_core.service.matches.phases import MATCH_CANCELLED, MATCH_OVER

FUNCTION = "${PhaseStepFunctionArn}"
ADVANCE = "Advance"
STALLED = "Stalled"
STOPPED = "Stopped"
HAND_OVER = "Hand over"
HANDED_OVER = "Handed over"
RETRY = [BACKOFF]
# What retries could not mend: record why, tell the host, stop; `recover` starts a new execution.
STALL = {"ErrorEquals": ["States.ALL"], "ResultPath": "$.error", "Next": STALLED}


def rule_sets(game: AnyGame) -> tuple[str, ...]:
    annotation = game.Settings.model_fields["rule_set"].annotation
    return typing.get_args(annotation) or (game.Settings().rule_set,)


def phase_names(game: AnyGame) -> list[str]:
    names: list[str] = []
    for rule_set in rule_sets(game):
        for kind in game.timeline(game.Settings.model_validate({"rule_set": rule_set})):
            if kind.name not in names:
                names.append(kind.name)
    return names


def step(name: str, payload: dict[str, str], next_state: str) -> dict[str, Any]:
    return {
        "Type": "Task",
        "Comment": name,
        "Resource": "arn:aws:states:::lambda:invoke",
        "Parameters": {"FunctionName": FUNCTION, "Payload": payload},
        "OutputPath": "$.Payload",
        "Retry": RETRY,
        "Catch": [STALL],
        "Next": next_state,
    }


def wait_for_phase(name: str) -> dict[str, Any]:
    return {
        "Type": "Task",
        "Comment": f"{name}: open until its deadline, or until a host act or early close wakes it",
        "Resource": "arn:aws:states:::lambda:invoke.waitForTaskToken",
        "Parameters": {
            "FunctionName": FUNCTION,
            "Payload": {
                "step": "wait",
                "match_id.$": "$.match_id",
                "phase_number.$": "$.phase_number",
                "clock_version.$": "$.clock_version",
                "token.$": "$$.Task.Token",
            },
        },
        "TimeoutSecondsPath": "$.wait_seconds",
        "ResultPath": None,
        "Retry": RETRY,
        "Catch": [{"ErrorEquals": ["States.Timeout"], "ResultPath": None, "Next": ADVANCE}, STALL],
        "Next": ADVANCE,
    }


def definition(game: AnyGame, loops_per_execution: int = LOOPS_PER_EXECUTION) -> dict[str, Any]:
    """Advance -> Next phase -> <the open phase's wait> -> Advance ...: three transitions a phase
    when nothing happens but its deadline, three more for each wake-up (a host act, early close).
    Each Advance counts the loop in the state (`loops`, from the execution's input); after
    `LOOPS_PER_EXECUTION` of them the execution hands the match on to a fresh one and ends, so
    no history outgrows Step Functions' limit (service/matches/handover.py). A test may set fewer loops to
    see a hand-over without playing hundreds of them; what is deployed is written with the default."""
    names = phase_names(game)
    advance = {"step": "advance", "match_id.$": "$.match_id", "loops.$": "$.loops"}
    hand_over = {"step": "hand_over", "match_id.$": "$.match_id", "handovers.$": "$$.Execution.Input.handovers"}
    states: dict[str, Any] = {
        ADVANCE: step(
            "Announce what is resolved but untold, resolve the open phase if it is due, and say how long to wait",
            advance,
            "Next phase",
        ),
        "Next phase": {
            "Type": "Choice",
            "Choices": [
                {"Variable": "$.phase", "StringEquals": MATCH_OVER, "Next": MATCH_OVER},
                {"Variable": "$.phase", "StringEquals": MATCH_CANCELLED, "Next": MATCH_CANCELLED},
                {"Variable": "$.loops", "NumericGreaterThanEquals": loops_per_execution, "Next": HAND_OVER},
            ]
            + [{"Variable": "$.phase", "StringEquals": name, "Next": name} for name in names],
            "Default": "Unknown phase",
        },
    }
    states |= {name: wait_for_phase(name) for name in names}
    states |= _ending_states(hand_over)
    return {
        "Comment": f"{game.title}: one state per phase of the timeline",
        "StartAt": ADVANCE,
        "States": states,
    }


def _ending_states(hand_over: dict[str, Any]) -> dict[str, Any]:
    """The states an execution ends in, whatever the game: the match over or cancelled, handed on
    to a fresh execution (`hand_over`: the step's payload), or stalled (the host told) and stopped."""
    return {
        MATCH_OVER: {"Type": "Succeed"},
        MATCH_CANCELLED: {"Type": "Succeed"},
        HAND_OVER: step(
            "This execution's history has grown long: start the match's next execution, which goes on from the store",
            hand_over,
            HANDED_OVER,
        ),
        HANDED_OVER: {"Type": "Succeed", "Comment": "The match goes on in the execution this one started"},
        "Unknown phase": {
            "Type": "Pass",
            "Result": {"Error": "UnknownPhase", "Cause": "the match's open phase has no state in this machine"},
            "ResultPath": "$.error",
            "Next": STALLED,
        },
        STALLED: {
            "Type": "Task",
            "Comment": "Record why the match stopped and tell the host; the match stays resumable (recover)",
            "Resource": "arn:aws:states:::lambda:invoke",
            "Parameters": {
                "FunctionName": FUNCTION,
                "Payload": {"step": "stalled", "match_id.$": "$.match_id", "error.$": "$.error"},
            },
            "ResultPath": None,
            "Retry": RETRY,
            "Catch": [{"ErrorEquals": ["States.ALL"], "ResultPath": None, "Next": STOPPED}],
            "Next": STOPPED,
        },
        STOPPED: {
            "Type": "Fail",
            "Error": "MatchStalled",
            "Cause": "a step kept failing; the host is told, and `recover` continues the match",
        },
    }


SEASON = "season"
"""The season's state machine: statemachines/season.asl.json, `<stack>-season` (cli/season_asl.py)."""
TEMPLATE_BEGIN = "  # BEGIN state machines (written by match-asl from the game registry; do not edit)\n"
TEMPLATE_END = "  # END state machines\n"


def state_machine_resource(game_id: str, function: str = "PhaseStepFunction", what: str = "match") -> str:
    """A game's state machine (or the season's: `what`, its steps' `function`), its log group and
    its alarm on failed executions.

    Logged at ERROR without execution data: a failed step's error and cause, never a state's
    input or output (the match's secrets pass through them); the log group is encrypted with the
    stack's DataKey like every other."""
    logical_id = "".join(part.capitalize() for part in game_id.split("_")) + "StateMachine"
    recover = "match-host season recover" if what == "season" else "match-host recover"
    described = f"{game_id} match" if what == "match" else what
    return f"""  {logical_id}:
    Type: AWS::Serverless::StateMachine
    Properties:
      Name: !Sub "${{AWS::StackName}}-{game_id}"
      DefinitionUri: statemachines/{game_id}.asl.json
      DefinitionSubstitutions:
        {function}Arn: !GetAtt {function}.Arn
      Logging:
        Level: ERROR
        IncludeExecutionData: false
        Destinations:
          - CloudWatchLogsLogGroup: {{ LogGroupArn: !GetAtt {logical_id}Logs.Arn }}
      Tracing:
        Enabled: true
      Policies:
        - LambdaInvokePolicy: {{ FunctionName: !Ref {function} }}
        - Statement:
            - Effect: Allow  # log delivery takes no resource-level permissions
              Action:
                - logs:CreateLogDelivery
                - logs:GetLogDelivery
                - logs:UpdateLogDelivery
                - logs:DeleteLogDelivery
                - logs:ListLogDeliveries
                - logs:PutResourcePolicy
                - logs:DescribeResourcePolicies
                - logs:DescribeLogGroups
              Resource: "*"
  {logical_id}Logs:
    Type: AWS::Logs::LogGroup
    Properties:
      LogGroupName: !Sub "/aws/vendedlogs/states/${{AWS::StackName}}-{game_id}"
      RetentionInDays: !Ref LogRetentionDays
      KmsKeyId: !GetAtt DataKey.Arn
  {logical_id}FailedAlarm:
    Type: AWS::CloudWatch::Alarm
    Properties:
      AlarmDescription: A {described}'s execution failed; the host can recover the {what} ({recover})
      Namespace: AWS/States
      MetricName: ExecutionsFailed
      Dimensions:
        - {{ Name: StateMachineArn, Value: !Ref {logical_id} }}
      Statistic: Sum
      Period: 300
      EvaluationPeriods: 1
      Threshold: 1
      ComparisonOperator: GreaterThanOrEqualToThreshold
      TreatMissingData: notBreaching
      AlarmActions: [!Ref HostAlertsTopic]
"""


def render_template(template: str) -> str:
    """template.yaml with its state machine block rewritten for every available game, and the season's."""
    head, _, rest = template.partition(TEMPLATE_BEGIN)
    _, _, tail = rest.partition(TEMPLATE_END)
    block = "".join(state_machine_resource(game_id) for game_id in registry.AVAILABLE)
    block += state_machine_resource(SEASON, "SeasonStepFunction", "season")
    return head + TEMPLATE_BEGIN + block + TEMPLATE_END + tail


def render(game_id: str, loops_per_execution: int = LOOPS_PER_EXECUTION) -> str:
    return json.dumps(definition(registry.load(game_id), loops_per_execution), indent=2, ensure_ascii=False) + "\n"


def machine(name: str) -> tuple[str, str]:
    """A state machine's definition as deployed (a game's, or the season's), and the logical id of
    the function its steps invoke (its `${<id>Arn}` substitution)."""
    if name == SEASON:
        return season_asl.render(), "SeasonStepFunction"
    return render(name), "PhaseStepFunction"


def asl_path(root: Path, game_id: str) -> Path:
    return root / "statemachines" / f"{game_id}.asl.json"


def outputs(root: Path) -> dict[Path, str]:
    """Every file match-asl writes, with what it writes: each available game's ASL, the season's,
    and template.yaml."""
    written = {asl_path(root, game_id): render(game_id) for game_id in registry.AVAILABLE}
    written[asl_path(root, SEASON)] = season_asl.render()
    template = root / "template.yaml"
    written[template] = render_template(template.read_text(encoding="utf-8"))
    return written


def stale(root: Path) -> list[str]:
    """The files under `root` that differ from what match-asl would write (missing ones too)."""
    return [
        str(path)
        for path, text in outputs(root).items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]


STALE = "stale: run bin/match-asl (.venv/bin/match-asl) to write it from the game registry"


@one_line_errors("match-asl")
def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="match-asl", description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path.cwd())
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    if args.check:
        if found := stale(args.root):
            print(STALE, *found, sep="\n  ", file=sys.stderr)
            return 1
        return 0
    for path, text in outputs(args.root).items():
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
