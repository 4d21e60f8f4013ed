"""The official supabase-auth client (PyPI) against a served deck sandbox.

Usage: python supabase_auth_flow.py BASE_URL ANON_KEY

Runs the flow an app runs (sign up, sign in, get the user, refresh, update the metadata, sign
out with each scope) and the errors an app handles (wrong password, existing email, weak
password, bad and reused refresh tokens, a wrong apikey), each through the client's own types.
Prints one line per step; exits 1 at the first step that fails.
"""

from __future__ import annotations

import sys
import traceback
import uuid
from collections.abc import Callable

from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError, AuthWeakPasswordError

PASSWORD = "conformance-pw-1"


def client(base: str, api_key: str) -> SyncGoTrueClient:
    # What supabase-py's create_client sends: the key as apikey and as the default bearer.
    return SyncGoTrueClient(
        url=f"{base}/auth/v1",
        headers={"apikey": api_key, "Authorization": f"Bearer {api_key}"},
        auto_refresh_token=False,
        persist_session=False,
    )


def expect(condition: bool, what: str) -> None:
    if not condition:
        raise AssertionError(what)


def expect_api_error(call: Callable[[], object], status: int, code: str | None) -> AuthApiError:
    try:
        call()
    except AuthApiError as error:
        expect(error.status == status, f"status {error.status}, expected {status} ({error.message})")
        expect(error.code == code, f"code {error.code!r}, expected {code!r} ({error.message})")
        return error
    raise AssertionError(f"no AuthApiError (expected {status} {code})")


def main(base: str, anon_key: str) -> int:
    auth = client(base, anon_key)
    email = f"conformance-{uuid.uuid4().hex[:12]}@example.com"
    state: dict[str, object] = {}

    def sign_up() -> None:
        response = auth.sign_up(
            {"email": email, "password": PASSWORD, "options": {"data": {"role": "athlete"}}}
        )
        session, user = response.session, response.user
        expect(session is not None, "sign_up returned no session")
        expect(user is not None and user.email == email, f"user email {user and user.email}")
        expect(user.aud == "authenticated" and user.role == "authenticated", "aud and role")
        expect(user.user_metadata.get("role") == "athlete", f"user_metadata {user.user_metadata}")
        expect(user.app_metadata == {"provider": "email", "providers": ["email"]}, "app_metadata")
        expect(user.email_confirmed_at is not None and user.confirmed_at is not None, "confirmed")
        expect(session.token_type == "bearer" and session.expires_in > 0, "token_type, expires_in")
        expect(session.expires_at is not None, "expires_at")
        state["user_id"] = user.id

    def sign_in() -> None:
        response = auth.sign_in_with_password({"email": email, "password": PASSWORD})
        expect(response.session is not None, "no session")
        expect(response.user.id == state["user_id"], "another user id")
        expect(response.user.last_sign_in_at is not None, "last_sign_in_at")
        state["session"] = response.session

    def get_user() -> None:
        response = auth.get_user()
        expect(response is not None, "no user")
        user = response.user
        expect(user.id == state["user_id"] and user.email == email, "another user")
        expect(user.identities and user.identities[0].provider == "email", "identities")
        expect(user.created_at is not None and user.updated_at is not None, "timestamps")

    def refresh() -> None:
        old = state["session"]
        response = auth.refresh_session()
        session = response.session
        expect(session is not None, "no session")
        expect(session.refresh_token != old.refresh_token, "the refresh token was not rotated")
        expect(response.user.id == state["user_id"], "another user")
        state["old_refresh_token"] = old.refresh_token
        state["session"] = session

    def update_metadata() -> None:
        response = auth.update_user({"data": {"role": "parent", "team": "U12"}})
        expect(response.user.user_metadata.get("role") == "parent", "role not updated")
        expect(response.user.user_metadata.get("team") == "U12", "team not set")
        removed = auth.update_user({"data": {"team": None}})
        expect("team" not in removed.user.user_metadata, "a null value did not remove its key")
        again = auth.get_user()
        expect(again.user.user_metadata == {"role": "parent"}, f"stored {again.user.user_metadata}")

    def sign_out_others() -> None:
        other = client(base, anon_key)
        other_session = other.sign_in_with_password({"email": email, "password": PASSWORD}).session
        auth.sign_out({"scope": "others"})
        expect(auth.get_user() is not None, "scope=others ended this session")
        expect_api_error(lambda: other.get_user(other_session.access_token), 403, "session_not_found")

    def sign_out() -> None:
        access_token = auth.get_session().access_token
        auth.sign_out()
        expect(auth.get_session() is None, "the client kept its session")
        expect_api_error(lambda: auth.get_user(access_token), 403, "session_not_found")

    def wrong_password() -> None:
        error = expect_api_error(
            lambda: auth.sign_in_with_password({"email": email, "password": "not-the-password"}),
            400,
            "invalid_credentials",
        )
        expect(error.message == "Invalid login credentials", error.message)

    def existing_email() -> None:
        expect_api_error(
            lambda: auth.sign_up({"email": email, "password": PASSWORD}), 422, "user_already_exists"
        )

    def weak_password() -> None:
        try:
            auth.sign_up({"email": f"weak-{email}", "password": "123"})
        except AuthWeakPasswordError as error:
            expect(error.status == 422 and error.code == "weak_password", f"{error.status} {error.code}")
            expect(error.reasons == ["length"], f"reasons {error.reasons}")
            return
        raise AssertionError("no AuthWeakPasswordError")

    def bad_refresh_token() -> None:
        expect_api_error(
            lambda: auth.refresh_session("not-a-refresh-token"), 400, "refresh_token_not_found"
        )

    def reused_refresh_token() -> None:
        fresh = client(base, anon_key)
        session = fresh.sign_in_with_password({"email": email, "password": PASSWORD}).session
        fresh.refresh_session()
        expect_api_error(
            lambda: fresh.refresh_session(session.refresh_token), 400, "refresh_token_already_used"
        )

    def wrong_api_key() -> None:
        wrong = client(base, anon_key[:-4] + "AAAA")
        error = expect_api_error(
            lambda: wrong.sign_in_with_password({"email": email, "password": PASSWORD}), 401, None
        )
        expect(error.message == "Invalid API key", error.message)

    steps = [
        ("sign up (with user_metadata)", sign_up),
        ("sign in with a password", sign_in),
        ("get the user", get_user),
        ("refresh the session", refresh),
        ("update the user's metadata", update_metadata),
        ("sign out other sessions (scope=others)", sign_out_others),
        ("sign out (scope=global)", sign_out),
        ("wrong password: invalid_credentials", wrong_password),
        ("existing email: user_already_exists", existing_email),
        ("weak password: weak_password", weak_password),
        ("bad refresh token: refresh_token_not_found", bad_refresh_token),
        ("reused refresh token: refresh_token_already_used", reused_refresh_token),
        ("wrong apikey: 401", wrong_api_key),
    ]
    for name, step in steps:
        try:
            step()
        except Exception:
            print(f"FAIL {name}", flush=True)
            traceback.print_exc()
            return 1
        print(f"ok   {name}", flush=True)
    print(f"supabase-auth conformance: {len(steps)} steps passed")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    sys.exit(main(sys.argv[1], sys.argv[2]))
