# A check for scripts/schemathesis's unauthenticated pass over the sandbox's operator documents:
# without the admin token, no operation may answer 2xx (issue 25: `//__sandbox/v1/reset`
# answered 200 without it). Loaded through SCHEMATHESIS_HOOKS=no_token_checks.
import schemathesis


@schemathesis.check
def refused_without_token(ctx, response, case):
    if 200 <= response.status_code < 300:
        raise AssertionError(
            f"{case.method} {case.formatted_path} answered {response.status_code} without the admin token"
        )
