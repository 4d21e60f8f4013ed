# A check for scripts/schemathesis's unauthenticated pass over the sandbox's operator documents:
# without the admin token, no operation may answer 2xx (issue 25: `//__sandbox/v1/reset`
# answered 200 without it), except one the document declares open (`security: []`: the
# proof, GET /__sandbox/v1/proof, which tells nothing of the token). Loaded through
# SCHEMATHESIS_HOOKS=no_token_checks.
import schemathesis


def declared_open(case):
    definition = getattr(case.operation, "definition", None)
    raw = getattr(definition, "raw", None)
    return isinstance(raw, dict) and raw.get("security") == []


@schemathesis.check
def refused_without_token(ctx, response, case):
    if declared_open(case):
        return
    if 200 <= response.status_code < 300:
        raise AssertionError(
            f"{case.method} {case.formatted_path} answered {response.status_code} without the admin token"
        )
