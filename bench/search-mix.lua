-- wrk script: GET /api/brokerages/search over a mix of 15 typeahead prefixes (1 to 8 letters),
-- taken in turn. done() prints one JSON line that bench/run reads.
--   wrk -t2 -c32 -d10s -s bench/search-mix.lua http://127.0.0.1:PORT
-- With DECK_WRK_PATH set, every request asks that path instead (the trivial-route row).
local queries = {
  "a", "k", "r", "ke", "co", "su", "kel", "com", "sum", "kell", "summi", "keller", "compas",
  "re%2Fmax", "coldwell",
}
local fixed = os.getenv("DECK_WRK_PATH")
if fixed == "" then fixed = nil end
local counter = 0

function request()
  counter = counter + 1
  if fixed then return wrk.format("GET", fixed) end
  return wrk.format("GET", "/api/brokerages/search?q=" .. queries[counter % #queries + 1] .. "&limit=15")
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests": %d, "duration_us": %d, "rps": %.1f, "p50_ms": %.3f, "p99_ms": %.3f, "max_ms": %.3f, '
      .. '"errors": %d, "status_errors": %d}\n',
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    e.connect + e.read + e.write + e.timeout, e.status))
end
