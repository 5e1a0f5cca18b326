"""Room codes, host secrets and voter hashes. Only `secrets` makes randomness here; only hashes are stored."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from types import MappingProxyType

from attn_lang import _
from attn_poll.errors import BadRoomCode, BadVoter

# Crockford base32: digits and capitals without I, L, O, U, so nothing reads as something else.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 7  # 7 * 5 = 35 bits: a guess hits one of 200 open rooms about once in 170 million tries
# What a student may type for a character that is not in the alphabet.
LOOK_ALIKES = MappingProxyType({"O": "0", "I": "1", "L": "1"})
MAX_TYPED = 40  # longer input is not a code mistyped, it is not a code
SECRET_BYTES = 24  # 192 bits; the host link carries it
MAX_VOTER_ID = 200


def new_room_code() -> str:
    return "".join(secrets.choice(ALPHABET) for __ in range(CODE_LENGTH))


def normalise_room_code(typed: object) -> str:
    """The canonical code for what a student typed (any case, spaces or dashes, O for 0); BadRoomCode if none."""
    if not isinstance(typed, str) or len(typed) > MAX_TYPED:
        raise BadRoomCode(_("That is not a room code: a room code has {length} letters and digits.",
                            length=CODE_LENGTH))
    cleaned = "".join(LOOK_ALIKES.get(char, char) for char in typed.upper() if char not in " -_\t")
    if len(cleaned) != CODE_LENGTH or any(char not in ALPHABET for char in cleaned):
        raise BadRoomCode(_("That is not a room code: a room code has {length} letters and digits.",
                            length=CODE_LENGTH))
    return cleaned


def new_host_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def hash_host_secret(secret: str) -> str:
    # The secret is 192 random bits, so a plain SHA-256 cannot be reversed by guessing.
    return hashlib.sha256(secret.encode()).hexdigest()


def host_secret_matches(given: object, stored_hash: str) -> bool:
    """Constant time in the secret's content: hash first, then compare_digest two equal-length digests."""
    if not isinstance(given, str) or len(given) > 200:
        given = ""
    return hmac.compare_digest(hash_host_secret(given).encode(), stored_hash.encode())


def new_salt() -> str:
    return secrets.token_hex(16)


def hash_voter(voter_id: object, salt: str) -> str:
    """The only trace of a voter: HMAC of the page's opaque id under the room's salt (unlinkable across rooms)."""
    if not isinstance(voter_id, str) or not 0 < len(voter_id) <= MAX_VOTER_ID:
        raise BadVoter(_("This page could not tell who you are; reload the page to get a voter id."))
    return hmac.new(salt.encode(), voter_id.encode(), hashlib.sha256).hexdigest()
