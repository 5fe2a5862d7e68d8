"""ApiToken: knox's hashed, expiring token (only a SHA-512 digest is kept), tied to the password it was issued under."""

from __future__ import annotations

from django.db import models
from django.utils.crypto import salted_hmac
from knox.models import AbstractAuthToken

_STAMP_SALT = "accounts.ApiToken.password_stamp"


def password_stamp(password_hash: str) -> str:
    """A keyed fingerprint of the user's password hash: it changes whenever the password does (as Django's
    session auth hash does), so a token issued before a password change stops working, however it changed."""
    return salted_hmac(_STAMP_SALT, password_hash, algorithm="sha256").hexdigest()


class ApiToken(AbstractAuthToken):  # type: ignore[misc]  # knox ships no types
    """One API credential: digest, key prefix (for lookup), user, created, expiry (knox) and the password stamp."""

    password_stamp = models.CharField(max_length=64)

    class Meta:
        verbose_name = "API token"
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"API token {self.digest[:12]}… of {self.user}"
