-- Replays a fixed list of request paths (one per line) with wrk, in order, wrapping around,
-- for wrk's -d duration (wrk always runs for the whole duration, so the duration bounds the run).
-- wrk -s replay.lua URL -- LIST_FILE THREADS [AUTHORIZATION] [COOKIE]   (an empty value sends no such header)
-- Thread i starts at i/THREADS of the list, so threads do not ask for the same tiles in lockstep.
local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  paths = {}
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  local n = tonumber(args[2]) or 1
  index = math.floor(id * #paths / n)
  if args[3] and args[3] ~= "" then wrk.headers["Authorization"] = args[3] end
  if args[4] and args[4] ~= "" then wrk.headers["Cookie"] = args[4] end
end

function request()
  index = index + 1
  if index > #paths then index = 1 end
  return wrk.format("GET", paths[index])
end

function done(summary, latency, requests)
  io.write(string.format(
    'WRKJSON {"requests":%d,"duration_us":%d,"p50_us":%d,"p95_us":%d,"p99_us":%d,"status_errors":%d,"socket_errors":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(95), latency:percentile(99),
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
