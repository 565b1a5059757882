"""The season's state machine (ASL), written from the season's stages (service/season/stages.py)
as the games' are from their timelines; `match-asl` writes it to statemachines/season.asl.json.

A season runs as one execution whose history is the season's timeline: for each episode
Advance -> Next stage -> "Main Match" (its match running) -> Advance -> "Naming" (ECs spending a
ToL and naming) -> Advance -> "Death Matches" (a Map: one "Death Match" iteration each, all at
once) -> "Eliminate" -> the next episode's "Main Match", or the "Finals", then "Season over".

Each match is a child of the season, started by the season's step (season_step) as the host's
create starts one (service/matches/lifecycle.py: stored, then its game's state machine), and the season
waits on a task token (`lambda:invoke.waitForTaskToken`) that the match's last step sends back
when the match ends (SendTaskSuccess), or fails (SendTaskFailure, `MatchStalled`) when the match's
execution stalls. Not `states:startExecution.sync:2`: moto's Step Functions interpreter (5.2.1)
fails every `states:startExecution` task (States.Runtime, 'StateMachineArn'), so the local stack
and the tests could not run it; and a match that hands over to a fresh execution
(service/matches/handover.py) ends its first execution SUCCEEDED, which `.sync` would take for the match's
end. A task token runs the same on moto and on AWS, and needs no EventBridge rule.

Every wait is woken by what it waits for (a match's end, an EC's act, the host's) and also
rechecks by itself at `wait_seconds` (a deadline, or a day's safety net), so a lost wake costs a
loop, not the season. Every step is safe to retry: it acts on the season as stored (the store's
writes are conditional, and a step finding its work done writes nothing).
"""

from __future__ import annotations

import json
from typing import Any

from game_core.cli.asl_parts import BACKOFF
from game_core.service.season import stages

FUNCTION = "${SeasonStepFunctionArn}"
ADVANCE = "Advance"
ELIMINATE = "Eliminate"
STALLED = "Stalled"
STOPPED = "Stopped"
RETRY = [
    # A match that stalled stalls the season at once (the host recovers it); what else fails is
    # retried with backoff, about four minutes in all, as the match machines' steps are.
    {"ErrorEquals": [stages.MATCH_STALLED], "MaxAttempts": 0},
    BACKOFF,
]
STALL = {"ErrorEquals": ["States.ALL"], "ResultPath": "$.error", "Next": STALLED}
TIMED_OUT = {"ErrorEquals": ["States.Timeout"], "ResultPath": None}


def _invoke(step: str, extra: dict[str, str] | None = None) -> dict[str, Any]:
    return {"FunctionName": FUNCTION, "Payload": {"step": step, "season_id.$": "$.season_id"} | (extra or {})}


def step(comment: str, next_state: str) -> dict[str, Any]:
    return {
        "Type": "Task",
        "Comment": comment,
        "Resource": "arn:aws:states:::lambda:invoke",
        "Parameters": _invoke("advance"),
        "OutputPath": "$.Payload",
        "Retry": RETRY,
        "Catch": [STALL],
        "Next": next_state,
    }


def wait(
    comment: str, step_name: str, then: str, on_timeout: str, extra: dict[str, str] | None = None
) -> dict[str, Any]:
    return {
        "Type": "Task",
        "Comment": comment,
        "Resource": "arn:aws:states:::lambda:invoke.waitForTaskToken",
        "Parameters": _invoke(step_name, {"stage.$": "$.stage", "token.$": "$$.Task.Token"} | (extra or {})),
        "TimeoutSecondsPath": "$.wait_seconds",
        "ResultPath": None,
        "Retry": RETRY,
        "Catch": [TIMED_OUT | {"Next": on_timeout}, STALL],
        "Next": then,
    }


def death_matches() -> dict[str, Any]:
    """One iteration per Death Match of the episode, all at once: each waits for its match's end;
    then Eliminate records every loser (and a tie left to the host) at once."""
    death_match = wait(
        "Start this Death Match (once) and wait for its end",
        "death_match",
        "",
        "Death Match",
        {"match_id.$": "$.match_id"},
    )
    del death_match["Catch"][1]  # a failed iteration fails the Map, whose Catch stalls the season
    del death_match["Next"]
    death_match["End"] = True  # no state after it: each state entered is a billed transition
    return {
        "Type": "Map",
        "Comment": "The episode's Death Matches, played at the same time",
        "ItemsPath": "$.death_matches",
        "MaxConcurrency": 0,
        "ItemProcessor": {
            "ProcessorConfig": {"Mode": "INLINE"},
            "StartAt": "Death Match",
            "States": {"Death Match": death_match},
        },
        "ResultPath": None,
        "Catch": [STALL],
        "Next": ELIMINATE,
    }


def definition() -> dict[str, Any]:
    waits = {
        stages.MAIN_MATCH: "Start the episode's Main Match (once) and wait for its result",
        stages.FINALS: "Start the final match (once) and wait for its result: its winner is the champion",
        stages.NAMING: "ECs spend a ToL or name their opponents, until their deadline (then the host's, then a lot)",
        stages.HOST: "Wait for the host to break a tie the rules leave to them",
    }
    states: dict[str, Any] = {
        ADVANCE: step(
            "Record what has ended, apply deadlines passed, start what is next; say what the season waits on",
            "Next stage",
        ),
        "Next stage": {
            "Type": "Choice",
            "Choices": [{"Variable": "$.stage", "StringEquals": name, "Next": name} for name in stages.STAGES],
            "Default": "Unknown stage",
        },
    }
    for name, comment in waits.items():
        if name in stages.MATCH_WAITS:
            states[name] = wait(comment, "match", ADVANCE, ADVANCE)
        else:
            states[name] = wait(comment, "people", ADVANCE, ADVANCE, {"version.$": "$.version"})
    states[stages.DEATH_MATCHES] = death_matches()
    states[ELIMINATE] = step("Eliminate each Death Match's loser; then the next episode, or the Finals", "Next stage")
    states |= {name: {"Type": "Succeed"} for name in stages.ENDS}
    states |= {
        "Unknown stage": {
            "Type": "Pass",
            "Result": {"Error": "UnknownStage", "Cause": "the season's stage has no state in this machine"},
            "ResultPath": "$.error",
            "Next": STALLED,
        },
        STALLED: {
            "Type": "Task",
            "Comment": "Record why the season stopped and tell the host; `recover` resumes it",
            "Resource": "arn:aws:states:::lambda:invoke",
            "Parameters": _invoke("stalled", {"error.$": "$.error"}),
            "ResultPath": None,
            "Retry": RETRY[1:],
            "Catch": [{"ErrorEquals": ["States.ALL"], "ResultPath": None, "Next": STOPPED}],
            "Next": STOPPED,
        },
        STOPPED: {
            "Type": "Fail",
            "Error": "SeasonStalled",
            "Cause": "a step or a match kept failing; the host is told, and `recover` continues the season",
        },
    }
    return {
        "Comment": "A season: its episodes' Main Matches, namings, Death Matches, then the Finals",
        "StartAt": ADVANCE,
        "States": states,
    }


def render() -> str:
    return json.dumps(definition(), indent=2, ensure_ascii=False) + "\n"
