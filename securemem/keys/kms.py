"""``aws-kms:ARN``: a KEK held by AWS KMS (the only module importing boto3 and botocore).

The KEK never leaves KMS: wrapping is a KMS ``Encrypt`` of the DEK, unwrapping a ``Decrypt``.
Both carry an encryption context naming the store id and the entry (``securemem:store``,
``securemem:entry``): KMS refuses to decrypt a wrapped DEK under any other context, so an entry
moved to another store's header, or edited, opens nothing; the context also shows in CloudTrail,
which is how an auditor sees which store a Decrypt was for.

The key is named by its key ARN (``arn:aws:kms:REGION:ACCOUNT:key/ID``), which is its key id
in ``DB.keys``: an alias may later point at another key, so it is refused. The region is the
ARN's (a KMS key lives in one region), the endpoint and credentials come from the standard AWS
settings (``AWS_ENDPOINT_URL_KMS``, ``AWS_ENDPOINT_URL``, ``AWS_ACCESS_KEY_ID``, a profile, an
instance role...), as every AWS tool reads them. Before its first use in a process the key is
described once (``DescribeKey``), so a disabled key, one pending deletion or one that is not a
symmetric encryption key is told as such; where the role may not describe keys, that check is
skipped and Encrypt/Decrypt answer for themselves.

Each failure is one line naming the ARN and what went wrong (KMS's own message text is not
echoed); none carries key material. boto3 is an optional extra (``pip install securemem[aws]``),
imported on first use.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Mapping
from typing import Any

from securemem.errors import KekError, KeyHeaderError
from securemem.keys.kek import NONCE_BYTES, Wrapped
from securemem.keys.raw import KEY_BYTES

ALG = "AWS-KMS"
_ARN = re.compile(r"arn:aws[a-z-]*:kms:([a-z0-9-]+):([0-9]{12}):key/([A-Za-z0-9-]+)")
# Connection failures are retried twice, quickly: an unreachable KMS should fail an open within
# seconds, not hang it (botocore's default keeps retrying for much longer).
_TIMEOUTS = {"connect_timeout": 5, "read_timeout": 20, "retries": {"max_attempts": 2, "mode": "standard"}}
_clients: dict[tuple[str, str | None], Any] = {}
_clients_lock = threading.Lock()

# KMS error codes -> what the operator is told (after "KEK aws-kms:ARN: ").
_REFUSALS = {
    "NotFoundException": "KMS has no such key (check the ARN, the account and the endpoint)",
    "DisabledException": "the KMS key is disabled; enable it to open the store",
    "KMSInvalidStateException": "the KMS key cannot be used in its current state (disabled or pending deletion?)",
    "AccessDeniedException": "KMS denied access to the key (the role needs kms:Encrypt and kms:Decrypt on it)",
    "UnrecognizedClientException": "KMS does not accept these AWS credentials",
    "InvalidSignatureException": "KMS does not accept these AWS credentials",
    "IncorrectKeyException": "the wrapped data key was sealed by another KMS key",
    "InvalidKeyUsageException": "the KMS key is not a symmetric encryption key (ENCRYPT_DECRYPT)",
    "KeyUnavailableException": "the KMS key is unavailable right now; try again",
    "DependencyTimeoutException": "KMS timed out; try again",
    "KMSInternalException": "KMS failed internally; try again",
    "ThrottlingException": "KMS is throttling requests; try again",
}


def parse_arn(rest: str) -> str:
    """The key ARN of ``aws-kms:ARN`` (after the scheme); a one-line KekError for anything else."""
    if not _ARN.fullmatch(rest):
        raise KekError(
            "an aws-kms: KEK names its key by key ARN: aws-kms:arn:aws:kms:REGION:ACCOUNT:key/KEY-ID (not an alias)"
        )
    return rest


def kms_context(store_id: str, nonce: bytes) -> dict[str, str]:
    """The encryption context of one wrapped DEK: its store and its entry (the entry's random nonce)."""
    return {"securemem:store": store_id, "securemem:entry": nonce.hex(), "securemem:purpose": "dek"}


class AwsKmsKek:
    def __init__(self, rest: str, environ: Mapping[str, str] = os.environ) -> None:
        self.arn = parse_arn(rest)
        self.region = _ARN.fullmatch(self.arn).group(1)  # type: ignore[union-attr]
        self.source = f"aws-kms:{self.arn}"
        self.key_id = self.arn  # stable: a key ARN always names the same key
        self._environ = environ
        self._checked = False

    def __repr__(self) -> str:
        return f"AwsKmsKek({self.source!r})"

    def wrap(self, dek: bytes, store_id: str) -> Wrapped:
        nonce = os.urandom(NONCE_BYTES)
        answer = self._call("Encrypt", Plaintext=dek, EncryptionContext=kms_context(store_id, nonce))
        return Wrapped(self.key_id, nonce, bytes(answer["CiphertextBlob"]), alg=ALG)

    def unwrap(self, wrapped: Wrapped, store_id: str) -> bytes | None:
        if wrapped.kdf is not None or wrapped.alg != ALG or wrapped.key_id != self.key_id:
            return None
        context = kms_context(store_id, wrapped.nonce)
        dek = bytes(self._call("Decrypt", CiphertextBlob=wrapped.sealed, EncryptionContext=context)["Plaintext"])
        if len(dek) != KEY_BYTES:
            raise KeyHeaderError("a wrapped key has the wrong size")
        return dek

    def _call(self, operation: str, **params: Any) -> dict[str, Any]:
        client, errors = _client(self.region, self._environ, self.source)
        if not self._checked:
            self._describe(client, errors)
        method = client.encrypt if operation == "Encrypt" else client.decrypt
        try:
            answer: dict[str, Any] = method(KeyId=self.arn, **params)
        except errors.ClientError as exc:
            code = _code(exc.response)
            if code == "InvalidCiphertextException" and operation == "Decrypt":
                # Only this key's entry is ever sent: KMS refusing it means it was sealed for
                # another store or entry (the encryption context differs), or edited.
                raise KeyHeaderError("KMS refused the wrapped key: it was sealed for another store or entry") from None
            raise self._refused(code) from None
        except errors.BotoCoreError as exc:
            raise self._unreachable(exc, client, errors) from None
        return answer

    def _describe(self, client: Any, errors: Any) -> None:
        """Once per provider: a disabled key, one pending deletion or a wrong kind of key, told plainly."""
        try:
            meta = client.describe_key(KeyId=self.arn)["KeyMetadata"]
        except errors.ClientError as exc:
            code = _code(exc.response)
            if code != "AccessDeniedException":  # a role without kms:DescribeKey: Encrypt/Decrypt tell
                raise self._refused(code) from None
            meta = {}
        except errors.BotoCoreError as exc:
            raise self._unreachable(exc, client, errors) from None
        state = meta.get("KeyState", "Enabled")
        if state == "Disabled":
            raise KekError(f"KEK {self.source}: {_REFUSALS['DisabledException']}")
        if state != "Enabled":
            raise KekError(f"KEK {self.source}: the KMS key cannot be used in its current state ({state})")
        if meta.get("KeyUsage", "ENCRYPT_DECRYPT") != "ENCRYPT_DECRYPT":
            raise KekError(f"KEK {self.source}: {_REFUSALS['InvalidKeyUsageException']}")
        self._checked = True

    def _refused(self, code: str) -> KekError:
        why = _REFUSALS.get(code, f"KMS refused the request ({code or 'no error code'})")
        return KekError(f"KEK {self.source}: {why}")

    def _unreachable(self, exc: Exception, client: Any, errors: Any) -> KekError:
        if isinstance(exc, errors.NoCredentialsError | errors.PartialCredentialsError):
            why = "no AWS credentials (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile or a role)"
        else:
            why = f"cannot reach KMS at {client.meta.endpoint_url} ({type(exc).__name__}); is it reachable?"
        return KekError(f"KEK {self.source}: {why}")


def _code(response: Mapping[str, Any]) -> str:
    """KMS's error code; a bare 403 (a proxy or gateway in front of KMS, or an IAM layer answering
    in another protocol than KMS's JSON) is an access denial all the same."""
    code = str(response.get("Error", {}).get("Code", ""))
    if code in ("AccessDenied", "403") or response.get("ResponseMetadata", {}).get("HTTPStatusCode") == 403:
        return "AccessDeniedException"
    return code


def _client(region: str, environ: Mapping[str, str], where: str) -> tuple[Any, Any]:
    """A KMS client for ``region`` (one per region and endpoint, shared by the process) and botocore's errors."""
    try:
        import boto3
        import botocore.config
        import botocore.exceptions
    except ImportError:
        raise KekError(f"KEK {where}: boto3 is not installed (pip install 'securemem[aws]')") from None
    endpoint = environ.get("AWS_ENDPOINT_URL_KMS") or environ.get("AWS_ENDPOINT_URL")
    with _clients_lock:
        if (region, endpoint) not in _clients:
            config = botocore.config.Config(**_TIMEOUTS)
            try:
                _clients[(region, endpoint)] = boto3.session.Session().client(
                    "kms", region_name=region, endpoint_url=endpoint, config=config
                )
            except (botocore.exceptions.BotoCoreError, ValueError) as exc:
                raise KekError(f"KEK {where}: cannot set up a KMS client ({type(exc).__name__})") from None
        return _clients[(region, endpoint)], botocore.exceptions
