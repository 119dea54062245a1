"""Email forms an attacker reached for: dots defanged in the local part, and SSH remotes that are no address."""

from __future__ import annotations

import pytest

from securemem.pii import ENTITY_TYPES, Scrubber, detect

KEY = b"k" * 32


def hashed(text: str) -> str:
    return Scrubber({"EMAIL": "hash"}, hash_key=KEY).scrub(text).text


def everything() -> Scrubber:
    return Scrubber(dict.fromkeys(ENTITY_TYPES, "redact"), hash_key=KEY)


# ---------------------------------------------------------------- dots defanged in the local part

# Each is "jane.doe@example.com" written another way: the whole of it is one address, with that token.
DEFANGED_LOCAL = [
    "jane[.]doe[@]example[.]com",
    "jane[dot]doe[at]example[dot]com",
    "jane(.)doe(@)example(.)com",
    "jane(dot)doe(at)example(dot)com",
    "jane{.}doe{at}example{.}com",
    "jane<dot>doe<at>example<dot>com",
    "JANE[DOT]DOE[AT]EXAMPLE[DOT]COM",
    "jane -dot- doe -at- example -dot- com",
    "jane [dot] doe [at] example [dot] com",
    "jane [.] doe [@] example [.] com",
    "jane[.]doe [at] example [dot] com",
    "jane[.]doe@example[.]com",
    "jane[.]doe@example.com",
    "jane(.)doe@example.com",
    "jane[dot]doe@example.com",
    "jane [dot] doe at example dot com",
]


@pytest.mark.parametrize("written", DEFANGED_LOCAL)
@pytest.mark.parametrize(("before", "after"), [("", ""), ("mail ", " today"), ("Contact: ", ".")])
def test_defanged_local_part_is_one_email(written: str, before: str, after: str) -> None:
    text = before + written + after
    findings = [(f.type, f.start, f.end) for f in detect(text)]
    assert findings == [("EMAIL", len(before), len(before) + len(written))], findings


@pytest.mark.parametrize("written", DEFANGED_LOCAL)
def test_defanged_local_part_gets_the_plain_token(written: str) -> None:
    assert hashed(f"mail {written} today") == hashed("mail jane.doe@example.com today")


@pytest.mark.parametrize(
    ("written", "plain"),
    [
        ("jane[.]doe[.]smith[@]example[.]co[.]uk", "jane.doe.smith@example.co.uk"),
        ("j(dot)doe(at)mail(dot)example(dot)org", "j.doe@mail.example.org"),
        ("jane.doe@example[.]com", "jane.doe@example.com"),  # a bracketed dot after a bare "@"
    ],
)
def test_other_defanged_addresses_get_their_plain_token(written: str, plain: str) -> None:
    assert hashed(written) == hashed(plain)
    assert hashed(written) != hashed("doe@example.com")


@pytest.mark.parametrize(
    "text",
    ["see [.] above", "file(.)txt", "a[.]b", "rename x -dot- y", "jane [dot] doe", "the end (.) of it"],
)
def test_defanged_dots_alone_are_not_emails(text: str) -> None:
    assert everything().scrub(text).text == text


# ---------------------------------------------------------------- SSH remotes

SSH_REMOTES = [
    "ssh deploy@prod.example.com",
    "ssh ubuntu@ec2-3-91-10-7.compute-1.amazonaws.com",
    "ssh root@db01.internal",
    "ssh -i key.pem ec2-user@host.example.com",
    "ssh -p 2222 admin@bastion.example.org",
    "$ ssh -p2222 -vA ops@host.example.com uptime",
    "sudo ssh -o StrictHostKeyChecking=no root@db.example.com",
    "ssh -J jump@bastion.example.com deploy@prod.example.com",
    "run: ssh deploy@prod.example.com 'systemctl restart app'",
    "sftp deploy@files.example.com",
]


@pytest.mark.parametrize("text", SSH_REMOTES)
def test_ssh_remote_stays_intact(text: str) -> None:
    assert everything().scrub(text).text == text


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("mail jane@example.com", "jane@example.com"),
        ("ssh keys to jane@example.com", "jane@example.com"),
        ("ssh host then mail jane@example.com", "jane@example.com"),
        ("ssh\njane@example.com", "jane@example.com"),
        ("myssh jane@example.com", "jane@example.com"),
    ],
)
def test_address_near_ssh_is_still_an_email(text: str, address: str) -> None:
    start = text.index(address)
    assert [(f.type, f.start, f.end) for f in detect(text)] == [("EMAIL", start, start + len(address))]
