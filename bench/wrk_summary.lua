-- wrk: print one JSON line with the tail of the latency distribution (bench/bench_http.py).
-- Latencies are in microseconds; requests that ran into wrk's --timeout are only counted.
done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'SUMMARY {"requests": %d, "seconds": %.3f, "timeouts": %d, "socket_errors": %d, ' ..
    '"non_2xx": %d, "p50_ms": %.3f, "p99_ms": %.3f, "p999_ms": %.3f, "max_ms": %.3f}\n',
    summary.requests, summary.duration / 1e6, errors.timeout,
    errors.connect + errors.read + errors.write, errors.status,
    latency:percentile(50) / 1e3, latency:percentile(99) / 1e3,
    latency:percentile(99.9) / 1e3, latency.max / 1e3))
end
