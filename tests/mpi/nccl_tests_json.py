#!/usr/bin/env python3
"""-J's document against nccl-tests 2.19's JSON layout (its keys and nesting,
written from nccl-tests' src/util.cu, version 3) and against the CSV of the
same run: the library algorithm's rows (LIB: mpi, nccl) of the program PROG.
    nccl_tests_json.py RUN.json RUN.csv LIB PROG"""
import csv, json, sys
d = json.load(open(sys.argv[1]))
lib, prog = sys.argv[3], sys.argv[4]
rows = [r for r in csv.DictReader(open(sys.argv[2])) if r["algo"] == lib]
# nccl-tests 2.19's top level, config and results (src/util.cu), version 3
for k in ("version", "start_time", "args", "env", "nccl_version", "config", "results",
          "out_of_bounds", "average_bus_bandwidth", "errors", "end_time"):
    assert k in d, k
assert d["version"] == 3
assert isinstance(d["args"], list) and d["args"][0].endswith(prog)
assert all(isinstance(e, str) and "=" in e for e in d["env"])
c = d["config"]
for k in ("nthreads", "ngpus", "minimum_bytes", "maximum_bytes", "step_factor", "warmup_iters",
          "iterations", "aggregated_iterations", "validation", "graph", "devices"):
    assert k in c, k
assert (c["minimum_bytes"], c["maximum_bytes"], c["step_factor"]) == (8, 4096, 4), c
assert (c["iterations"], c["warmup_iters"]) == (3, 1), c
assert c["per_iter_timing"] == "true", c
assert len(c["devices"]) == 2 and [v["rank"] for v in c["devices"]] == [0, 1]
for v in c["devices"]:
    for k in ("rank", "group", "pid", "hostname", "device", "device_hex", "device_info"):
        assert k in v, k
res = d["results"]
assert len(res) == len(rows), (len(res), len(rows))
def close(a, b):
    return abs(float(a) - float(b)) <= 1e-5 * abs(float(b)) + 1e-12
for r, row in zip(res, rows):
    for k in ("size", "count", "type", "redop", "root", "out_of_place", "in_place",
              "actual_iterations"):
        assert k in r, k
    assert (r["size"], r["count"], r["type"], r["redop"]) == \
        (int(row["bytes"]), int(row["count"]), row["dtype"], row["op"]), (r, row)
    assert r["root"].strip() == "-1", r["root"]
    mode = "in_place" if row["in_place"] == "1" else "out_of_place"
    m = r[mode]
    assert set(m) == {"time", "alg_bw", "bus_bw", "nwrong"}, m
    assert close(m["time"], row["time_us"]), (m, row["time_us"])
    assert close(m["alg_bw"], row["algbw_GBps"]) and close(m["bus_bw"], row["busbw_GBps"]), m
    assert m["nwrong"] == float(row["wrong"])
    assert r["actual_iterations"] == 3
    # nccl-tests' per-iteration report (its -I), which its analyze_perf_json.py reads:
    # times_us the max over the process rows, iteration by iteration
    p = r[mode + "_per_iter"]
    for k in ("skipped_iterations", "min_us", "max_us", "avg_us", "p50_us", "p95_us", "p99_us",
              "stdev_us", "cv_pct", "times_us", "per_process_max_times_us"):
        assert k in p, k
    t, procs = p["times_us"], p["per_process_max_times_us"]
    assert len(t) == 3 and len(procs) == 2 and all(len(x) == 3 for x in procs), p
    assert all(abs(t[i] - max(x[i] for x in procs)) <= 1e-9 * t[i] for i in range(3)), p
    assert close(p["avg_us"], sum(t) / 3) and close(p["avg_us"], row["time_us"]), p
    assert p["min_us"] == min(t) and p["max_us"] == max(t) and p["p50_us"] == sorted(t)[1], p
oob = d["out_of_bounds"]
assert oob["count"] == sum(int(r["wrong"]) for r in rows) and oob["okay"] == "true", oob
avg = d["average_bus_bandwidth"]
mean = sum(float(r["busbw_GBps"]) for r in rows) / len(rows)
assert abs(avg["bandwidth"] - mean) <= 1e-5 * mean and avg["okay"] == "unchecked", (avg, mean)
assert d["errors"] == []
# collbench's own key: every algorithm in the same shape
names = [a["name"] for a in d["collbench"]["algorithms"]]
assert d["collbench"]["algorithm"] == lib and sorted(names) == sorted([lib, "ring"]), d["collbench"]
