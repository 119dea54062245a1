"""Cryptocurrency wallets' private keys in the forms wallets export them (reviewer CG's exchange and wallet desks).

- Bitcoin's Wallet Import Format (WIF: "5J...", "K..."/"L..." compressed, "9..."/"c..." on testnet) and BIP 32's
  extended private keys ("xprv...", "tprv...", BIP 49's and 84's "yprv"/"zprv"...): Base58Check, so a value is
  kept only when its four check bytes are its payload's double SHA-256 and its version bytes are a private key's.
  A public key ("xpub...") or an address has other version bytes and is left alone.
- Solana's keypair file, a JSON array of its 64 bytes ("[233,148,52,...]", what `solana-keygen` writes), and the
  same 64 bytes in Base58 (what Phantom exports): an Ed25519 seed and its public key, kept only when the second half
  is the first's public key. A transaction's signature is 64 bytes in Base58 too, an image's row or a lookup table 64
  small numbers: neither is a seed and its key (an attacker's round found both near "export", "wallet", "secret").
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from securemem.pii.normalize import viewed_words
from securemem.pii.patterns import lazy_compile
from securemem.pii.scan import Scan, Span, index_words

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BASE58_VALUE = {char: value for value, char in enumerate(_BASE58)}
_B58 = "1-9A-HJ-NP-Za-km-z"

# WIF: version 0x80 (mainnet) or 0xEF (testnet), 32 bytes, 0x01 when compressed, 4 check bytes.
# Extended private keys: 4 version bytes, depth, fingerprint, child number, chain code, 0x00 and the 32-byte key.
# A WIF key's 51 or 52 characters, an extended key's 111: which they are, their version bytes say (below)
_CHECKED = lazy_compile(rf"(?<![{_B58}])(?:[{_B58}]{{51,52}}|[{_B58}]{{111}})(?![{_B58}])")
# Bitcoin's (mainnet, testnet), Litecoin's, Dogecoin's and Dash's private keys' version bytes (an attacker's round:
# "Litecoin Core dumpprivkey: T64VT2z...", "Dogecoin wallet privkey QX2f4PV...")
_WIF_VERSIONS = (0x80, 0xEF, 0xB0, 0x9E, 0xCC, 0xF1)  # (and Dogecoin's testnet)
_WIF_BYTES = (37, 38)  # with the check bytes: uncompressed, compressed
_XPRV_VERSIONS = frozenset(
    bytes.fromhex(version)
    # xprv, tprv, yprv, uprv, zprv, vprv, Yprv, Zprv and SLIP-132's multisig testnet Uprv and Vprv
    for version in (
        "0488ade4",
        "04358394",
        "049d7878",
        "044a4e28",
        "04b2430c",
        "045f18bc",
        "0295b005",
        "02aa7a99",
        "024285b5",
        "02575048",
        "02fac398",  # Dogecoin Core's dgpv
        "019d9cfe",  # Litecoin's Ltpv
    )
)
_XPRV_BYTES = 82
_XPRV_KEY_AT = 45  # the byte before the key: 0x00 in a private key
_UNCOMPRESSED = 33  # a WIF payload without the compression flag
_BYTE = 255
_MIXED = 16  # distinct values in a keypair's 64 bytes (not "[0,0,0,...]" or a counter)

_KEYPAIR_ARRAY = lazy_compile(r"\[[ \t\r\n]*(?:[0-9]{1,3}[ \t\r\n]*,[ \t\r\n]*){63}[0-9]{1,3}[ \t\r\n]*\]")
_SOLANA_SECRET = lazy_compile(rf"(?<![{_B58}])[{_B58}]{{86,88}}(?![{_B58}])")
_SOLANA_BYTES = 64
_SEED_BYTES = 32


# An account's private key in hex, as Ethereum's tools print it ("0x" and 64 hex digits), after a word that names a
# private key ("hot-wallet signer key (ETH) 0xad74...": reviewer CI); a transaction's or a block's hash, an address's
# or a public key's hex are the same shape and are named otherwise.
# (or in eight groups of eight, a blank between: "hot wallet key 0x422dcd1c 14e0b3e6 ...", reviewer CO)
_HEX_KEY = lazy_compile(r"(?<![0-9A-Za-z])0x(?:[0-9a-fA-F]{64}|[0-9a-fA-F]{8}(?: [0-9a-fA-F]{8}){7})(?![0-9A-Za-z])")
_HEX_KEY_NAMED = lazy_compile(
    r"(?<![a-z])(?<!public )(?<!pub )(?:private|priv|signer|signing|secret|wallet)[ _\-]?key"
    # (a chain's name in brackets between, not what the key is: "signer key (public) 0x...": the attacker's round)
    r"(?:[ \t]*\((?:eth|ethereum|evm|bsc|bnb|polygon|matic|arbitrum|arb|optimism|op|base|avax|avalanche)\))?"
    r"[ \t]*[:=]?[ \t]*$"
    # a Hardhat or Truffle network's accounts, each a private key ('accounts: ["0x..."]': reviewer CQ; quoted, on the
    # next line, after another item; Truffle's privateKeys, ethers' Wallet: an attacker's round)
    r"""|(?<![a-z])["']?(?:accounts|privatekeys)["']?[ \t]*:[ \t]*\[[^\]]{0,120}?["'`]$"""
    r"""|(?<![a-z])wallet\([ \t]*["'`]$"""
)
_HEX_KEY_REACH = 160
_VARIED_HEX = 10  # distinct hex digits a random key of 64 has (a placeholder's "abcdef0123..." or "0000...", fewer)


def may_hold_wallet_key(scan: Scan) -> bool:
    """A run of 50 token characters (every Base58 key is one), or a bracket and 63 commas (a keypair's array)."""
    return (
        b"x" * 50 in scan.tokens
        or ("[" in scan.text and scan.text.count(",") >= _SOLANA_BYTES - 1)
        or ("0x" in scan.text and _GROUPED_HEX in scan.tokens)
        or (not _WALLET_WORDS.isdisjoint(scan.words) and _GROUPED_HEX_KEY.search(scan.text) is not None)
    )


# Solana's own names for the file: "secret", "keypair" or "export" alone name a signature or a table as often, and
# "id.json" is the file's whole name, not "dither_id.json" (an attacker's round).
_KEYPAIR_NAMED = lazy_compile(r"(?<![\w.\-])(?:solana[ _\-]?keypair|[\w\-]*keypair\.json|id\.json)[^\n\[\]]{0,40}$")
_GROUPED_HEX = b"xxxxxxxxxx xxxxxxxx xxxxxxxx"  # "0x" and the first groups of a key in groups of eight


def find_wallet_keys(scan: Scan) -> Iterator[Span]:
    text = scan.text
    if b"x" * 50 in scan.tokens:
        for match in _CHECKED.finditer(text):
            if _private_key(_base58_check(match.group())):
                yield match.span()
        for match in _SOLANA_SECRET.finditer(text):
            decoded = _base58(match.group())
            if decoded is not None and _ed25519_pair(decoded):
                yield match.span()
    if "0x" in text:
        lower = scan.lower
        for match in _HEX_KEY.finditer(text):
            digits = match.group()[2:].lower().replace(" ", "")
            if (
                _HEX_KEY_NAMED.search(lower, max(0, match.start() - _HEX_KEY_REACH), match.start()) is not None
                and len(set(digits)) >= _VARIED_HEX
                and "abcdef" not in digits
            ):
                yield match.span()
    if not _WALLET_WORDS.isdisjoint(scan.words):
        yield from _grouped_wallet_keys(scan)
    if "[" in text:
        for match in _KEYPAIR_ARRAY.finditer(text):
            values = [int(value) for value in re.findall(r"[0-9]+", match.group())]
            if (
                max(values) <= _BYTE
                and len(set(values)) > _MIXED
                and (
                    _ed25519_pair(bytes(values))
                    # or named a Solana keypair right before ("Solana keypair ... (id.json): [41,197,...]": reviewer CQ,
                    # whose bytes were random: a seed and its key, or not, it is what the file holds)
                    or (
                        _KEYPAIR_NAMED.search(scan.lower, max(0, match.start() - _HEX_KEY_REACH), match.start())
                        # not a count ("[0, 1, ..., 63]" in a fixture: an attacker's round)
                        and sorted(values) != values
                    )
                )
            ):
                yield match.span()


# A wallet's key in hex, with no "0x", in sixteen groups of four or eight of eight, as a paper backup prints it
# ("cold-wallet export (paper): EF3D 4A8C BF51 ...": reviewer CU), after a wallet's word on its line; not an
# address's, a transaction's or a public key's hex (named so between).
_GROUPED_HEX_KEY = lazy_compile(
    r"(?<![0-9A-Za-z])(?:[0-9a-fA-F]{4}(?: [0-9a-fA-F]{4}){15}|[0-9a-fA-F]{8}(?: [0-9a-fA-F]{8}){7})(?![0-9A-Za-z])"
)
# (a wallet in German, French, Spanish, Portuguese, Italian, Polish, Russian, Chinese, Japanese, Korean too: the
# attacker's round; as the view writes them, found with the gates' words)
_WALLET_WORDS = index_words(
    *viewed_words(
        "wallet", "geldbörse", "portefeuille", "cartera", "carteira", "portafoglio", "portfel", "кошелёк", "кошелек",
        "кошелька", "钱包", "錢包", "ウォレット", "지갑",
    )
)  # fmt: skip
_WALLET_BEFORE = lazy_compile("(?:" + "|".join(re.escape(word) for word in sorted(_WALLET_WORDS)) + r")[^\n]{0,48}$")
# ... what names the value a key, between the wallet's word and it (not a digest's, a build's, a signature's or an
# identifier's hex: "Wallet app v3.2.1 SHA-256: 9f86d081 ...", "wallet-core CI cache key: 2cf2 ...", "Google Wallet
# object id ...": an attacker's round)
_KEY_BETWEEN = lazy_compile(
    r"priv|secret|backup|export|seed|recovery|paper|signer|(?<![a-z])key(?![a-z])|schlüssel|schluessel|papier|"
    r"sicherung|clé|clave|chave|chiave|klucz|私钥|私鑰|备份|備份|秘密鍵|バックアップ|개인키|백업|"
    + "|".join(re.escape(word) for word in viewed_words("ключ", "резерв"))
)
_NOT_A_KEY_BETWEEN = lazy_compile(
    r"address|hash|tx|transaction|public|pubkey|xpub|block|contract|sha|sum|digest|checksum|fingerprint|(?<![a-z])id"
    r"(?![a-z])|serial|signature|salt|(?<![a-z])iv(?![a-z])|commit|build|cache|vector|test|batch|pass|firmware|app"
)


def _grouped_wallet_keys(scan: Scan) -> Iterator[Span]:
    lower = scan.lower
    for match in _GROUPED_HEX_KEY.finditer(scan.text):
        named = _WALLET_BEFORE.search(lower, max(0, match.start() - 64), match.start())
        digits = match.group().lower().replace(" ", "")
        if (
            named is not None
            and _KEY_BETWEEN.search(named.group()) is not None
            and _NOT_A_KEY_BETWEEN.search(named.group()) is None
            and len(set(digits)) >= _VARIED_HEX
            and "abcdef" not in digits
        ):
            yield match.span()


def _ed25519_pair(raw: bytes) -> bool:
    """64 bytes that are an Ed25519 seed and its public key, as Solana keeps a keypair."""
    if len(raw) != _SOLANA_BYTES:
        return False
    public = Ed25519PrivateKey.from_private_bytes(raw[:_SEED_BYTES]).public_key()
    return public.public_bytes(Encoding.Raw, PublicFormat.Raw) == raw[_SEED_BYTES:]


def _base58(value: str) -> bytes | None:
    number = 0
    for char in value:
        digit = _BASE58_VALUE.get(char)
        if digit is None:
            return None
        number = number * 58 + digit
    body = number.to_bytes((number.bit_length() + 7) // 8, "big") if number else b""
    return b"\0" * (len(value) - len(value.lstrip("1"))) + body


def _base58_check(value: str) -> bytes | None:
    """The payload of a Base58Check value whose last four bytes check it; None otherwise."""
    raw = _base58(value)
    if raw is None or len(raw) < 5:
        return None
    payload, check = raw[:-4], raw[-4:]
    return payload if hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] == check else None


def _private_key(payload: bytes | None) -> bool:
    if payload is None:
        return False
    if len(payload) + 4 in _WIF_BYTES and payload[0] in _WIF_VERSIONS:
        return len(payload) == _UNCOMPRESSED or payload[-1] == 1  # a compressed key ends in 0x01
    return len(payload) + 4 == _XPRV_BYTES and payload[:4] in _XPRV_VERSIONS and payload[_XPRV_KEY_AT] == 0
