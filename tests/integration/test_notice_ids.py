"""Every notice on SNS carries its id twice, as the `notice_id` message attribute (a subscription
may filter on it) and as a field of the message (a subscriber reading the body drops a repeat by
it): the match, the occasion and the recipient, made by hand here from issue 19's scheme."""

from __future__ import annotations

import hashlib
import json

from conftest import crates_request


def test_each_notice_carries_its_id_as_an_attribute_and_in_its_message(stack) -> None:
    inbox = stack.subscribe(["p1", "p2"])
    created = stack.host({"command": "create", "match": crates_request(2)})
    assert created["ok"], created
    match_id = created["match_id"]
    stack.settle()

    # The opening: the public announcement and each player's own, on the occasion "begins"
    assert [n["notice_id"] for n in inbox.receive(None)] == [f"{match_id}/begins/@all"]
    assert [n["notice_id"] for n in inbox.receive("p1")] == [f"{match_id}/begins/p1"]

    # A queue that takes only the public notice of one occasion, by the attribute alone: the
    # host's message "Back at 8" to everyone (its id the digest of "@host", "ALL" and its text),
    # recorded at the stack's now (the clock stands still; the extension before it, stored at
    # version 2, told everyone in a notice of its own, `.../v2/@all`)
    digest = hashlib.sha256(b"@host\0ALL\0Back at 8").hexdigest()[:16]
    pressed = f"{match_id}/host-message-{digest}-{int(stack.now().timestamp())}/@all"
    sqs, sns = stack.client("sqs"), stack.client("sns")
    url = sqs.create_queue(QueueName="only-the-press")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    attributes = {"RawMessageDelivery": "true", "FilterPolicy": json.dumps({"notice_id": [pressed]})}
    sns.subscribe(TopicArn=stack.public_topic, Protocol="sqs", Endpoint=arn, Attributes=attributes)

    assert stack.host({"command": "extend", "match_id": match_id, "seconds": 600})["ok"]  # another notice
    assert stack.host({"command": "press", "match_id": match_id, "text": "Back at 8"})["ok"]

    messages = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", [])
    assert [json.loads(m["Body"])["notice_id"] for m in messages] == [pressed]
    assert [n["notice_id"] for n in inbox.receive(None)] == [f"{match_id}/v2/@all", pressed]
