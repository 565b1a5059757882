"""Automatic mail as the real systems write it (our own text; their headers and MIME structure,
as seen in their mail's "show original"), about match m-000000000001's mail on play.test: its
notice of Round 1, Message-ID <m-000000000001.2.5f0c9e@play.test>, sent to each participant.
Shared by the classifier's tests, the mail-in use case's and the local stack's."""

from __future__ import annotations

MID = "m-000000000001"
NOTICE_ID = f"<{MID}.2.5f0c9e@play.test>"
"""The Message-ID of the match's notice these mails answer or return."""


def crlf(text: str) -> bytes:
    return text.replace("\n", "\r\n").encode()


def outlook_auto_reply(sender: str = "cy@contoso.example") -> bytes:
    """Exchange Online's out-of-office reply (Outlook's "Automatic replies")."""
    return crlf(f"""\
Received: from AM9PR10MB4120.EURPRD10.PROD.OUTLOOK.COM (2603:10a6:20b:4a1::9) by
 AM9PR10MB4121.EURPRD10.PROD.OUTLOOK.COM with HTTPS; Tue, 1 Dec 2026 13:00:41 +0000
From: Cy Dee <{sender}>
To: "{MID}@play.test" <{MID}@play.test>
Subject: Automatic reply: [{MID}] Round 1 is open
Thread-Topic: [{MID}] Round 1 is open
Thread-Index: AQHa8Zr0mXwS0tW1Vk2+X1qHnQpZ2A==
Date: Tue, 1 Dec 2026 13:00:41 +0000
Message-ID: <AM9PR10MB41206B1F3C0E9A2D7E5B4C1AE8A62@AM9PR10MB4120.EURPRD10.PROD.OUTLOOK.COM>
References: {NOTICE_ID}
In-Reply-To: {NOTICE_ID}
Content-Language: en-GB
X-MS-Has-Attach:
X-MS-TNEF-Correlator:
auto-submitted: auto-generated
x-ms-exchange-generated-message-source: Mailbox Rules Agent
x-ms-exchange-parent-message-id: {NOTICE_ID}
Content-Type: text/plain; charset="us-ascii"
Content-Transfer-Encoding: quoted-printable
MIME-Version: 1.0

Thank you for your message. I am out of the office until 14 December with no
access to e-mail. BID 3 can wait.

Cy
""")


def gmail_vacation(sender: str = "bo@example.com") -> bytes:
    """Gmail's vacation responder: the subject is the one the user chose."""
    return crlf(f"""\
MIME-Version: 1.0
Date: Tue, 1 Dec 2026 05:00:43 -0800
References: {NOTICE_ID}
In-Reply-To: {NOTICE_ID}
Auto-Submitted: auto-replied
Message-ID: <vacation.CAJx4fV1qP9n2cG8sT0=a7F-3e1@mail.gmail.com>
Subject: Re: [{MID}] Round 1 is open
From: Bo Ek <{sender}>
To: {MID}@play.test
Content-Type: multipart/alternative; boundary="000000000000c1d2e305f8a1b2c3"

--000000000000c1d2e305f8a1b2c3
Content-Type: text/plain; charset="UTF-8"

Hi, I'm on holiday until Monday and reading no mail. PUSH bo LEFT 3 when I'm back!

--000000000000c1d2e305f8a1b2c3
Content-Type: text/html; charset="UTF-8"

<div dir="ltr">Hi, I'm on holiday until Monday and reading no mail. PUSH bo LEFT 3 when I'm back!</div>

--000000000000c1d2e305f8a1b2c3--
""")


def icloud_vacation(sender: str = "ada@icloud.example") -> bytes:
    """iCloud Mail's vacation reply ("Automatically reply to messages when they are received")."""
    return crlf(f"""\
Return-Path: <>
From: Ada <{sender}>
To: {MID}@play.test
Subject: Auto Reply: [{MID}] Round 1 is open
Date: Tue, 1 Dec 2026 13:00:44 +0000
Message-ID: <1A2B3C4D-5E6F-4A1B-9C8D-7E6F5A4B3C2D@icloud.example>
In-Reply-To: {NOTICE_ID}
X-Autoreply: yes
Auto-Submitted: auto-replied
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 7bit
MIME-Version: 1.0

Away sailing, back on the 10th.
""")


def postfix_bounce(recipient: str = "cy@example.org", original_to: str = "cy@example.org") -> bytes:
    """Postfix's bounce: a DSN with the whole original attached as message/rfc822."""
    return crlf(f"""\
Return-Path: <>
Date: Tue,  1 Dec 2026 13:00:12 +0000 (UTC)
From: MAILER-DAEMON@mail.example.org (Mail Delivery System)
Subject: Undelivered Mail Returned to Sender
To: {MID}@play.test
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
	boundary="3F2B41C0E1.1796130012/mail.example.org"
Content-Transfer-Encoding: 8bit
Message-Id: <20261201130012.4A7C61C0E2@mail.example.org>

This is a MIME-encapsulated message.

--3F2B41C0E1.1796130012/mail.example.org
Content-Description: Notification
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 8bit

This is the mail system at host mail.example.org.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients. It's attached below.

<{recipient}>: host mx.example.org[192.0.2.7] said: 550 5.1.1
    <{recipient}>: Recipient address rejected: User unknown in virtual mailbox
    table (in reply to RCPT TO command)

--3F2B41C0E1.1796130012/mail.example.org
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mail.example.org
X-Postfix-Queue-ID: 3F2B41C0E1
X-Postfix-Sender: rfc822; {MID}@play.test
Arrival-Date: Tue,  1 Dec 2026 13:00:11 +0000 (UTC)

Final-Recipient: rfc822; {recipient}
Original-Recipient: rfc822;{recipient}
Action: failed
Status: 5.1.1
Remote-MTA: dns; mx.example.org
Diagnostic-Code: smtp; 550 5.1.1 <{recipient}>: Recipient address rejected: User
    unknown in virtual mailbox table

--3F2B41C0E1.1796130012/mail.example.org
Content-Description: Undelivered Message
Content-Type: message/rfc822
Content-Transfer-Encoding: 8bit

From: {MID}@play.test
To: {original_to}
Subject: [{MID}] Round 1 is open
Date: Tue, 01 Dec 2026 13:00:10 +0000
Message-ID: {NOTICE_ID}
Auto-Submitted: auto-generated
Content-Type: text/plain; charset="utf-8"
Content-Transfer-Encoding: quoted-printable
MIME-Version: 1.0

Round 1 is open until 14:00.

--3F2B41C0E1.1796130012/mail.example.org--
""")


def exchange_ndr(recipient: str = "dana@contoso.example") -> bytes:
    """Exchange Online's non-delivery report: the original's headers as text/rfc822-headers."""
    return crlf(f"""\
From: Microsoft Outlook <MicrosoftExchange329e71ec88ae4615bbc36ab6ce41109e@contoso.example>
To: <{MID}@play.test>
Date: Tue, 1 Dec 2026 13:00:15 +0000
Content-Type: multipart/report; report-type=delivery-status;
	boundary="b6e5d4c3-a2b1-4c0d-9e8f-7a6b5c4d3e2f"
X-MS-Exchange-Message-Is-Ndr:
Content-Language: en-GB
Message-ID: <4c2f1a0e-8b7d-4e6c-a5f4-3b2c1d0e9f8a@AM9PR10MB4120.EURPRD10.PROD.OUTLOOK.COM>
In-Reply-To: {NOTICE_ID}
References: {NOTICE_ID}
Subject: Undeliverable: [{MID}] Round 1 is open
Auto-Submitted: auto-replied
MIME-Version: 1.0

--b6e5d4c3-a2b1-4c0d-9e8f-7a6b5c4d3e2f
Content-Type: multipart/alternative; differences=Content-Type;
	boundary="1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9"

--1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9
Content-Type: text/plain; charset="us-ascii"

Your message to {recipient} couldn't be delivered.
{recipient.split("@")[0]}'s mailbox is full.

--1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9
Content-Type: text/html; charset="us-ascii"

<html><body><p>Your message to {recipient} couldn't be delivered.</p></body></html>

--1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9--

--b6e5d4c3-a2b1-4c0d-9e8f-7a6b5c4d3e2f
Content-Type: message/delivery-status

Reporting-MTA: dns;AM9PR10MB4120.EURPRD10.PROD.OUTLOOK.COM
Received-From-MTA: dns;a8-31.smtp-out.amazonses.com
Arrival-Date: Tue, 1 Dec 2026 13:00:14 +0000

Original-Recipient: rfc822;{recipient}
Final-Recipient: rfc822;{recipient}
Action: failed
Status: 5.2.2
Diagnostic-Code: smtp;554 5.2.2 mailbox full;
 STOREDRV.Deliver.Exception:QuotaExceededException.MapiExceptionShutoffQuotaExceeded

--b6e5d4c3-a2b1-4c0d-9e8f-7a6b5c4d3e2f
Content-Type: text/rfc822-headers

From: {MID}@play.test
To: {recipient}
Subject: [{MID}] Round 1 is open
Date: Tue, 1 Dec 2026 13:00:10 +0000
Message-ID: {NOTICE_ID}
Auto-Submitted: auto-generated
MIME-Version: 1.0

--b6e5d4c3-a2b1-4c0d-9e8f-7a6b5c4d3e2f--
""")


def gmail_bounce(recipient: str = "bo@example.net") -> bytes:
    """Gmail's bounce of a notice sent through a host's own Gmail account (to the account itself)."""
    return crlf(f"""\
Delivered-To: host@example.net
Return-Path: <>
From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>
To: host@example.net
Auto-Submitted: auto-replied
Subject: Delivery Status Notification (Failure)
References: {NOTICE_ID}
In-Reply-To: {NOTICE_ID}
X-Failed-Recipients: {recipient}
Message-ID: <65f0a1b2.1c2d3e4f.a5b6.0001.GMR@mx.google.com>
Date: Tue, 01 Dec 2026 05:00:13 -0800 (PST)
MIME-Version: 1.0
Content-Type: multipart/report; boundary="000000000000a1b2c3d4e5f6a7b8"; report-type=delivery-status

--000000000000a1b2c3d4e5f6a7b8
Content-Type: multipart/related; boundary="000000000000a1b2c3d4e5f6a7c9"

--000000000000a1b2c3d4e5f6a7c9
Content-Type: text/html; charset="UTF-8"

<html><body><h2>Address not found</h2><p>Your message wasn't delivered to
<a>{recipient}</a> because the address couldn't be found.</p></body></html>

--000000000000a1b2c3d4e5f6a7c9--

--000000000000a1b2c3d4e5f6a7b8
Content-Type: message/delivery-status

Reporting-MTA: dns; googlemail.com
Received-From-MTA: dns; host@example.net
Arrival-Date: Tue, 01 Dec 2026 05:00:12 -0800 (PST)
X-Original-Message-ID: {NOTICE_ID}

Final-Recipient: rfc822; {recipient}
Action: failed
Status: 5.1.1
Remote-MTA: dns; mx.example.net. (192.0.2.9, the server for the domain example.net.)
Diagnostic-Code: smtp; 550-5.1.1 The email account that you tried to reach does not exist.
Last-Attempt-Date: Tue, 01 Dec 2026 05:00:13 -0800 (PST)

--000000000000a1b2c3d4e5f6a7b8
Content-Type: message/rfc822

From: Host <host@example.net>
To: {recipient}
Reply-To: host+{MID}@example.net
Subject: [{MID}] Round 1 is open
Message-ID: {NOTICE_ID}
Content-Type: text/plain; charset="utf-8"

Round 1 is open until 14:00.

--000000000000a1b2c3d4e5f6a7b8--
""")


def list_copy(sender: str = "ada@example.com") -> bytes:
    """A Google Groups copy of Ada's mail: she wrote to a list the match's address is on."""
    return crlf(f"""\
From: Ada <{sender}>
To: game-night@googlegroups.example
Subject: [game-night] Who's in for the next match?
Date: Tue, 1 Dec 2026 13:01:00 +0000
Message-ID: <CAFq7r2Yx1@mail.example.com>
Precedence: list
Mailing-list: list game-night@googlegroups.example; contact game-night+owners@googlegroups.example
List-Id: <game-night.googlegroups.example>
List-Unsubscribe: <mailto:game-night+unsubscribe@googlegroups.example>
Content-Type: text/plain; charset="UTF-8"
MIME-Version: 1.0

PUSH bo LEFT 3, anyone?
""")
