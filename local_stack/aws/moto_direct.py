"""A DynamoDB call handed to moto's DynamoDB handler as soon as botocore has checked and written it.

Through moto's mock, each DynamoDB call went the way of an HTTP request: botocore built and signed
a request (SigV4: a canonical request, hashes and an HMAC chain), emitted it to moto's stubber, which
looked for the service by trying the URL patterns of every moto backend, then handed it to
`DynamoHandler.dispatch`; botocore then ran its retry checks on the answer and parsed it. Of a
DynamoDB call's CPU on the local stack (replaying the calls of a played match) the signing, the
request's building and the search were about a sixth.

While installed, a handler that botocore runs last on every `before-call` (so every fault and
meter hooked there runs first, as before) takes a DynamoDB call whose URL moto's stubber would
serve with `DynamoHandler.dispatch` and does what the stubber does with it, minus the search: the
request (botocore's own, from the checked and serialized parameters, unsigned: moto reads the
caller's access key from the Authorization header, which keeps just the credential), moto's answer
under moto's lock with `InProcessLambdas.after_aws_call` told (the journal), then the answer
parsed as botocore's endpoint parses it (`convert_to_response_dict`, the protocol's parser, the
modeled error fields: a TransactionCanceledException's CancellationReasons). botocore then emits
`after-call` and raises the same ClientError. Left out of the HTTP path, and why it changes
nothing: the retry checks (moto's DynamoDB answers no throttling, 5xx or CRC mismatch, the only
answers retried: a retry never happened) and the `request-created`, `before-send`,
`response-received` and `before-parse` events (botocore registers nothing on them for DynamoDB but
signing and retry headers, nor does this project).

Registered with botocore's built-in handlers at import, as moto registers its stubber, so every
client made afterwards has it; idle unless installed and moto's mock is on. The functions of
botocore and moto it stands in for are pinned by digest (`SEAMS`).
"""

from __future__ import annotations

import hashlib
import inspect
import re
from collections.abc import Callable
from functools import cache
from typing import Any

import moto.backend_index as backend_index
import moto.backends as backends
from botocore import handlers as botocore_handlers
from botocore.awsrequest import AWSResponse
from botocore.endpoint import Endpoint, convert_to_response_dict, create_request_object
from botocore.parsers import ResponseParserFactory
from moto.core import DEFAULT_ACCOUNT_ID
from moto.core import models as moto_models
from moto.core.botocore_stubber import BotocoreStubber, MockRawResponse
from moto.core.config import passthrough_service, passthrough_url, service_whitelisted
from moto.core.exceptions import HTTPException
from moto.core.utils import get_equivalent_url_in_aws_domain
from moto.moto_api import recorder

SERVICE = "dynamodb"
SEAMS: dict[str, tuple[Callable[..., Any], str]] = {
    "BotocoreStubber.process_request": (BotocoreStubber.process_request, "ce3143f816399b1c"),
    "BotocoreStubber.__call__": (BotocoreStubber.__call__, "c24e082b7783e18a"),
    "Endpoint._send_request": (Endpoint._send_request, "af914535237dd087"),
    "Endpoint._do_get_response": (Endpoint._do_get_response, "e1821119dedea32b"),
    "Endpoint.create_request": (Endpoint.create_request, "3896032f73c0943e"),
    # called unbound: it reads nothing of its endpoint
    "Endpoint._add_modeled_error_fields": (Endpoint._add_modeled_error_fields, "b1920c6acf170ec0"),
}
"""What this stands in for, and the first 16 hex digits of the SHA-256 of its source (moto 5.2.1,
botocore 1.44.18)."""
Serialized = Callable[[str, Any, Callable[[], Any]], Any]
"""`lambda_adapter`'s: (event name, request, the call into moto) -> its answer, under moto's lock,
`after_aws_call` told."""


def seam_digest(function: Callable[..., Any]) -> str:
    return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]


@cache
def changed_seams() -> tuple[str, ...]:
    """Read once a process: every stack installs the direct calls."""
    return tuple(name for name, (function, digest) in SEAMS.items() if seam_digest(function) != digest)


def _clean_url(url: str) -> str:
    """The URL as moto's stubber matches it (no query, AWS's domain)."""
    parsed, _ = get_equivalent_url_in_aws_domain(url)
    return f"{parsed.scheme}://{parsed.netloc}{parsed.path}"


def _dispatcher(clean_url: str) -> Callable[..., Any] | None:
    """What moto's stubber would call for `clean_url` if its service is DynamoDB's, else None."""
    service = next((name for name, pattern in backend_index.backend_url_patterns if pattern.match(clean_url)), None)
    if service != SERVICE:
        return None
    backend = backends.get_backend(SERVICE)[DEFAULT_ACCOUNT_ID]["us-east-1"]  # type: ignore[call-overload]
    return next((method for url, method in backend.urls.items() if re.compile(url).match(clean_url)), None)


class DirectCalls:
    """The `before-call` handler (last of all): a DynamoDB call served by moto without HTTP's detour."""

    def __init__(self) -> None:
        self.serialized: Serialized | None = None
        self._dispatchers: dict[str, Callable[..., Any] | None] = {}
        self._parsers = ResponseParserFactory()

    def __call__(self, model: Any, params: dict[str, Any], request_signer: Any, context: Any, **_: Any) -> Any:
        serialized = self.serialized
        if serialized is None or not moto_models.botocore_stubber.enabled:
            return None
        if model.service_model.service_name != SERVICE:
            return None
        clean_url = _clean_url(params["url"])
        if passthrough_url(clean_url) or passthrough_service(SERVICE) or not service_whitelisted(SERVICE):
            return None  # moto's stubber decides
        if clean_url not in self._dispatchers:
            self._dispatchers[clean_url] = _dispatcher(clean_url)
        dispatch = self._dispatchers[clean_url]
        if dispatch is None:
            return None
        request = create_request_object(params).prepare()
        credentials = request_signer._credentials  # moto takes the account from the access key
        if credentials is not None:
            access_key = credentials.get_frozen_credentials().access_key
            request.headers["Authorization"] = f"AWS4-HMAC-SHA256 Credential={access_key}/"

        def answer() -> AWSResponse:
            try:
                recorder._record_request(request)
                status, headers, body = dispatch(request, request.url, request.headers)
            except HTTPException as error:
                status, headers, body = error.code, error.get_headers(), error.get_body()
            return AWSResponse(request.url, status, headers, MockRawResponse(body))  # type: ignore[arg-type]

        http = serialized(f"before-send.{SERVICE}.{model.name}", request, answer)
        return http, self._parsed(http, model)

    def _parsed(self, http: AWSResponse, model: Any) -> dict[str, Any]:
        """The answer as botocore's endpoint parses it (its `_do_get_response` and `_send_request`)."""
        response = convert_to_response_dict(http, model)
        parser = self._parsers.create_parser(model.service_model.resolved_protocol)
        parsed: dict[str, Any] = parser.parse(response, model.output_shape)
        if http.status_code >= 300:
            Endpoint._add_modeled_error_fields(None, response, parsed, model, parser)  # type: ignore[arg-type]
        if "ResponseMetadata" in parsed:
            parsed["ResponseMetadata"]["RetryAttempts"] = 0
        return parsed


DIRECT = DirectCalls()
botocore_handlers.BUILTIN_HANDLERS.append(("before-call", DIRECT, botocore_handlers.REGISTER_LAST))


def install(serialized: Serialized) -> Callable[[], None]:
    """Serve DynamoDB calls directly, each through `serialized`; returns the function that stops it."""
    changed = changed_seams()
    if changed:
        raise RuntimeError(
            f"local_stack.aws.moto_direct stands in for functions that changed: {', '.join(changed)}. "
            "Re-check what it does against them."
        )
    DIRECT.serialized = serialized

    def restore() -> None:
        DIRECT.serialized = None

    return restore
