"""A login to the laptop's SMTP port logs nothing of aiosmtpd's own legacy attribute: aiosmtpd 1.4
logs "Session.login_data is deprecated" at every login an authenticator accepts (it sets that
attribute itself: aio-libs/aiosmtpd#347), though the service reads only `session.auth_data`. A
refused login says nothing of it either, and other warnings of aiosmtpd's still reach the log."""

from __future__ import annotations

import logging
import smtplib

import pytest

from local_stack.laptop.access import LEGACY_LOGIN_WARNING, Authenticator
from local_stack.laptop.smtp import SmtpListener

TOKEN = "the-host-token"


@pytest.mark.parametrize(("password", "accepted"), [(TOKEN, True), ("a wrong token", False)])
def test_a_login_logs_no_legacy_warning(caplog: pytest.LogCaptureFixture, password: str, accepted: bool) -> None:
    listener = SmtpListener(object(), "127.0.0.1", 0, authenticator=Authenticator(TOKEN, lambda _login: []))
    try:
        with caplog.at_level(logging.INFO, logger="mail.log"), smtplib.SMTP("127.0.0.1", listener.port) as smtp:
            try:
                smtp.login("host", password)  # in plain text: from this laptop itself
                taken = True
            except smtplib.SMTPAuthenticationError:
                taken = False
    finally:
        listener.stop()

    assert taken is accepted
    said = [record.getMessage() for record in caplog.records if record.name == "mail.log"]
    assert said, "aiosmtpd logged nothing of the session: the filter would be tested on nothing"
    assert not [line for line in said if line.startswith(LEGACY_LOGIN_WARNING)], said


def test_aiosmtpds_other_warnings_still_reach_the_log(caplog: pytest.LogCaptureFixture) -> None:
    Authenticator(TOKEN, lambda _login: [])  # its filter in place
    with caplog.at_level(logging.WARNING, logger="mail.log"):
        logging.getLogger("mail.log").warning("auth_required == True but auth_require_tls == False")
    assert [record.getMessage() for record in caplog.records] == ["auth_required == True but auth_require_tls == False"]
