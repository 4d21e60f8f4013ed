# Generated requests carry no NUL character (U+0000) anywhere: PostgreSQL's text cannot hold
# one, so the sandbox refuses such text with 400 on either engine, as a PostgreSQL-backed
# backend does (Tests/PrefsTests/Sandbox/PrefsTextTests.swift checks it). Without this filter
# schemathesis's positive-data check would call that 400 a schema-valid request rejected.
# Loaded through SCHEMATHESIS_HOOKS=no_nul by scripts/schemathesis's runs on both engines.
import schemathesis


def _holds_nul(value):
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_holds_nul(key) or _holds_nul(item) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return any(_holds_nul(item) for item in value)
    return False


@schemathesis.hook
def filter_body(ctx, body):
    return not _holds_nul(body)


@schemathesis.hook
def filter_query(ctx, query):
    return not _holds_nul(query)


@schemathesis.hook
def filter_path_parameters(ctx, path_parameters):
    return not _holds_nul(path_parameters)


@schemathesis.hook
def filter_headers(ctx, headers):
    return not _holds_nul(headers)
