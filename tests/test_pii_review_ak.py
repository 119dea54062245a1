"""What reviewers AK (a hostile acceptance suite), AL (cards, IBANs, SSNs and IP addresses in every form)
and AM (ordinary text dense in numbers) found, and what reviewer AI's round left: credentials given to
a command as positional arguments, and four providers' key shapes."""

from __future__ import annotations

import pytest

from securemem.pii import detect


def found(text: str) -> list[tuple[str, str]]:
    return [(f.type, text[f.start : f.end]) for f in detect(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Backblaze's CLI: the key id and the application key, in both spellings of the command.
        (
            "b2 account authorize 005eb7986d64092d2c003f2bb K005PRH39MALTsoOXZQjdvxNz5aeT1q",
            [
                ("BACKBLAZE_KEY_ID", "005eb7986d64092d2c003f2bb"),
                ("BACKBLAZE_APPLICATION_KEY", "K005PRH39MALTsoOXZQjdvxNz5aeT1q"),
            ],
        ),
        (
            "b2 authorize-account e6ad1b7d0b34 00375a2d3225788e08472bed0aec292c1e166269e1",
            [
                ("BACKBLAZE_KEY_ID", "e6ad1b7d0b34"),
                ("BACKBLAZE_APPLICATION_KEY", "00375a2d3225788e08472bed0aec292c1e166269e1"),
            ],
        ),
        # MinIO's client: a generated access key and its secret key.
        (
            "mc alias set prod https://minio.acme.io Q3AM3UQ867SPQQA43P2F zuf+tfteSlswRu7BJ86wekitnifILbZam1KYY3TG",
            [("GENERIC_SECRET", "Q3AM3UQ867SPQQA43P2F"), ("PASSWORD", "zuf+tfteSlswRu7BJ86wekitnifILbZam1KYY3TG")],
        ),
        # Windows: the password after the share, options around it.
        ("net use Z: \\\\fs01\\finance Winter2024! /user:ACME\\jdoe /persistent:no", [("PASSWORD", "Winter2024!")]),
        ('net use Z: \\\\fs01\\finance "Tr0ub4dor &3" /user:ACME\\jdoe', [("PASSWORD", "Tr0ub4dor &3")]),
        # Providers' shapes: Fireworks, Voyage, Modal, Backblaze (and its key id by its setting's name).
        ("- Fireworks AI: fw_8v8m44IfHMQha4yKr5sO83jy", [("FIREWORKS_API_KEY", "fw_8v8m44IfHMQha4yKr5sO83jy")]),
        (
            "- Voyage AI: pa-NxGDHszCyHVRXApSVh0v0WL47n0ECJR66e47k-kpKgW",
            [("VOYAGE_API_KEY", "pa-NxGDHszCyHVRXApSVh0v0WL47n0ECJR66e47k-kpKgW")],
        ),
        (
            "modal token set --token-id ak-fWHd3HGVDhNOImnsFBOoUH --token-secret as-MffcLZX12bDLnmjAZAjrlO",
            [("MODAL_TOKEN_ID", "ak-fWHd3HGVDhNOImnsFBOoUH"), ("MODAL_TOKEN_SECRET", "as-MffcLZX12bDLnmjAZAjrlO")],
        ),
        ("B2_APPLICATION_KEY_ID=005eb7986d64092d2c003f2bb", [("BACKBLAZE_KEY_ID", "005eb7986d64092d2c003f2bb")]),
    ],
)
def test_credentials_are_found_with_their_type(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # Defaults, placeholders and references are no credential; a prompt ("*") asks for the password.
        "mc alias set local http://localhost:9000 minioadmin minioadmin",
        "mc alias set local http://localhost:9000 $ACCESS_KEY $SECRET_KEY",
        "mc alias set local http://localhost:9000 YOUR-ACCESS-KEY YOUR-SECRET-KEY",
        "net use Z: \\\\fs01\\finance * /user:ACME\\jdoe",
        "net use Z: \\\\fs01\\finance /user:ACME\\jdoe /persistent:yes",
        # The commands' words in prose, and the prefixes starting words and slugs.
        "We authorize the b2 team to use the alias set up last week; net use of funds was 12345678.",
        "Booked the pa-system-and-lighting-rig-for-the-hall-2024 for Friday.",
        "The as-a-service-offering-for-banks-2024 deck is in the shared drive.",
        "Renamed fw_update_handler_for_the_new_device to fw_update_handler_v2 in the firmware.",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert found(text) == []
