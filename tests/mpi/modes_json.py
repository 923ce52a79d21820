#!/usr/bin/env python3
"""-J with both modes, read as nccl-tests' readers read it (src/util.cu 2.19:
each result has "out_of_place" and "in_place", null for a mode not run).
  modes_json.py BOTH.json BOTH.csv BCAST.json
BOTH: a ring run of 8 B - 4 KiB (x8), both modes: each mode's bus_bw is the
CSV's row of that mode; BCAST: broadcast_perf's MPI_Bcast, which has no
out-of-place form: every "out_of_place" null, every "in_place" measured."""
import csv
import json
import sys

d = json.load(open(sys.argv[1]))
rows = {(int(r["bytes"]), int(r["in_place"])): r for r in csv.DictReader(open(sys.argv[2]))}
res = d["results"]
assert [r["size"] for r in res] == [8, 64, 512, 4096], [r["size"] for r in res]
for r in res:
    for key, ip in (("out_of_place", 0), ("in_place", 1)):
        m = r[key]
        assert m is not None, (r["size"], key)
        want = float(rows[(r["size"], ip)]["busbw_GBps"])
        assert abs(m["bus_bw"] - want) <= 1e-4 * want, (r["size"], key, m, want)
        assert m["nwrong"] == 0, m
b = json.load(open(sys.argv[3]))
assert b["results"], b
for r in b["results"]:
    assert r["out_of_place"] is None, r
    assert isinstance(r["in_place"]["bus_bw"], float), r
