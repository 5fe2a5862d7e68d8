"""The audit actions the accounts app records (declared once: code, label, exception kind; see audit/actions.py)."""

from __future__ import annotations

from audit.actions import ExceptionKind, declare

API_TOKEN_ISSUE = declare("api_token_issue", "API token issued")
API_TOKEN_REVOKE = declare("api_token_revoke", "API token revoked")
API_TOKENS_REVOKE_ALL = declare("api_tokens_revoke_all", "All API tokens of a user revoked")
USER_LOCKED_OUT = declare(
    "user_locked_out", "Sign-ins locked after repeated failures", exception_kind=ExceptionKind.FAILED_LOGINS
)
