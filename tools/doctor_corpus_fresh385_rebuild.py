"""fresh-385, after the runs of draws 7 and 9: rebuild a vLLM log from its raw journal (/tmp/fresh385/vllm/caseK.log,
which goes on with the maker's clean-up stop) and the log first written (for its last server line and the client
lines after it): the journal up to that line (the snap), the client lines, then thin_after_event (runs of traffic lines
after the event step keep their first and last KEEP lines, marked) and fresh382's trimmed (the middle of the healthy
traffic cut, marked). Usage: .venv/bin/python tools/doctor_corpus_fresh385_rebuild.py K RAW SAVED KEEP
(draw 9: KEEP 150; draw 7: KEEP 4)."""

import sys

sys.path.insert(0, "tools")
import doctor_corpus_fresh382 as v  # noqa: E402
import doctor_corpus_fresh385 as t  # noqa: E402

k, raw, saved, keep = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
r = open(raw).read().splitlines(keepends=True)
sv = open(saved).read().splitlines(keepends=True)
ti = next(i for i, ln in enumerate(sv) if ln.startswith("# traffic ("))
last_server = sv[ti - 1]
tail = "".join(sv[ti:])
# the raw line equal to last_server, the last one before the first cleanup line
clean = next(i for i, ln in enumerate(r) if "trigger received signal=SIGTERM" in ln and i > 3000)
end = max(i for i in range(clean) if r[i] == last_server)
snap = "".join(r[: end + 1])
assert len(r[end + 1 : clean]) < 5, r[end + 1 : clean]
text = snap + tail
text2, runs, cut = t.thin_after_event(text, keep=keep, run_min=2 * keep + 12)
text3, c2 = v.trimmed(text2)
print(k, "between", r[end + 1 : clean], "thin", runs, cut, "trim", c2, len(text3.encode()))
open(f"/tmp/fresh385/r{k}.log", "w").write(text3)
