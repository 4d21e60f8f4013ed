"""The official supabase-auth client (PyPI) against a served deck sandbox.

Usage: SANDBOX_ADMIN_TOKEN=TOKEN python supabase_auth_flow.py BASE_URL ANON_KEY

Runs the flow an app runs (sign up, sign in, get the user, refresh, update the metadata, sign
out with each scope), password recovery (the email read from the sandbox's outbox with the
admin token, then its code, its link's token hash, and a PKCE link exchanged for a session),
and the errors an app handles (wrong password, existing email, weak password, bad refresh
tokens, a rotated one used again, a wrong apikey), each through the client's own types. The
expected answers are GoTrue's (supabase/auth's handlers and tests, the client's docs).
Prints one line per step; exits 1 at the first step that fails.
"""

from __future__ import annotations

import json
import os
import re
import sys
import traceback
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable

from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError, AuthWeakPasswordError

PASSWORD = "conformance-pw-1"


NEW_PASSWORD = "conformance-pw-2"
APP_URL = "http://localhost:3000/reset"


def client(base: str, api_key: str, flow_type: str = "implicit") -> SyncGoTrueClient:
    # What supabase-py's create_client sends: the key as apikey and as the default bearer.
    return SyncGoTrueClient(
        url=f"{base}/auth/v1",
        headers={"apikey": api_key, "Authorization": f"Bearer {api_key}"},
        auto_refresh_token=False,
        persist_session=False,
        flow_type=flow_type,
    )


def last_email(base: str, admin_token: str, to: str) -> dict:
    """The newest email to `to` in the sandbox's outbox (what `deck sandbox outbox` lists)."""
    query = urllib.parse.urlencode({"to": to})
    request = urllib.request.Request(
        f"{base}/__sandbox/v1/workspace/outbox?{query}",
        headers={"Authorization": f"Bearer {admin_token}"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        emails = json.load(response)
    if not emails:
        raise AssertionError(f"no email to {to} in the outbox")
    return emails[-1]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: ANN001
        return None


def follow_link(link: str) -> str:
    """Opens an emailed link as a browser would, and returns where it redirects."""
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        opener.open(link, timeout=30)
    except urllib.error.HTTPError as error:
        if error.code == 303:
            return error.headers["Location"]
        raise
    raise AssertionError("the link did not redirect")


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


def main(base: str, anon_key: str, admin_token: str) -> int:
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
        # GoTrue's concurrent-refresh rule: the parent of the active token gets that token back.
        fresh = client(base, anon_key)
        session = fresh.sign_in_with_password({"email": email, "password": PASSWORD}).session
        active = fresh.refresh_session().session
        again = fresh.refresh_session(session.refresh_token).session
        expect(again is not None, "no session for the reused token")
        expect(again.refresh_token == active.refresh_token, "not the active refresh token")
        expect(again.user.id == state["user_id"], "another user")

    def settings() -> None:
        answer = auth._request("GET", "settings").json()
        expect(answer["external"]["email"] is True, f"email provider {answer['external']}")
        expect(answer["mailer_autoconfirm"] is True and answer["disable_signup"] is False, "flags")
        health = auth._request("GET", "health").json()
        expect(health["name"] == "GoTrue", f"health {health}")

    def recover_with_the_code() -> None:
        auth.reset_password_for_email(email, {"redirect_to": APP_URL})
        mail = last_email(base, admin_token, email)
        code = re.search(r"\b(\d{6})\b", mail["body"])
        expect(code is not None, f"no code in {mail['body']!r}")
        response = auth.verify_otp({"email": email, "token": code.group(1), "type": "recovery"})
        expect(response.session is not None and response.user.email == email, "no session")
        auth.update_user({"password": NEW_PASSWORD})
        signed_in = client(base, anon_key).sign_in_with_password(
            {"email": email, "password": NEW_PASSWORD}
        )
        expect(signed_in.session is not None, "the new password does not sign in")
        expect_api_error(
            lambda: auth.verify_otp({"email": email, "token": code.group(1), "type": "recovery"}),
            403,
            "otp_expired",
        )

    def recover_with_the_link() -> None:
        auth.reset_password_for_email(email, {"redirect_to": APP_URL})
        link = last_email(base, admin_token, email)["join_url"]
        token = urllib.parse.parse_qs(urllib.parse.urlparse(link).query)["token"][0]
        response = auth.verify_otp({"token_hash": token, "type": "recovery"})
        expect(response.session is not None and response.user.email == email, "no session")

    def recover_with_pkce() -> None:
        pkce = client(base, anon_key, flow_type="pkce")
        pkce.reset_password_for_email(email, {"redirect_to": APP_URL})
        location = follow_link(last_email(base, admin_token, email)["join_url"])
        expect(location.startswith(APP_URL + "?code="), f"redirected to {location}")
        code = urllib.parse.parse_qs(urllib.parse.urlparse(location).query)["code"][0]
        response = pkce.exchange_code_for_session({"auth_code": code})
        expect(response.session is not None and response.user.email == email, "no session")
        expect_api_error(
            lambda: pkce.exchange_code_for_session({"auth_code": code, "code_verifier": "x" * 43}),
            404,
            "flow_state_not_found",
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
        ("rotated refresh token used again: the active token", reused_refresh_token),
        ("wrong apikey: 401", wrong_api_key),
        ("settings and health", settings),
        ("recover: the emailed code, then a new password", recover_with_the_code),
        ("recover: the emailed link's token hash", recover_with_the_link),
        ("recover with PKCE: the link's code exchanged", recover_with_pkce),
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
    if len(sys.argv) != 3 or not os.environ.get("SANDBOX_ADMIN_TOKEN"):
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    sys.exit(main(sys.argv[1], sys.argv[2], os.environ["SANDBOX_ADMIN_TOKEN"]))
