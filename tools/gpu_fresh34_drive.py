"""tools/gpu_serve_requests.py plus a case key "first": another engine already serving when the case starts.

Why: fresh-34's "second-engine" knob is the user who starts a server while another holds most of the GPU; the
older driver's "twin" starts both at the same moment, which is not what users meet. Copied into .gpu/run/ beside
gpu_serve_requests.py and gpu_serve_drive.py (the ../shared/gpu kit); run by tools/gpu-go.sh.
Usage: python3 .gpu/run/gpu_fresh34_drive.py CASES_JSON TOTAL_S PARALLEL MEM_CAP CASE [CASE...]
"first": [serve args] starts on port+50 (log CASE.first.log), waits (up to 240 s) for "Application startup
complete", then the case runs as gpu_serve_requests runs it; the first engine is killed after the case.
"""

import os
import time

import gpu_serve_requests as g
from gpu_serve_drive import kill, ready, start


class FirstCase(g.Case):
    def run(self):
        if "first" not in self.c:
            return super().run()
        log = os.path.join(g.LOGS, self.name_ + ".first.log")
        first = start(self.c["first"], self.c.get("env", {}), self.port + 50, log)
        dl = min(self.end, time.time() + 240)
        while time.time() < dl and first.poll() is None and not ready(log):
            time.sleep(0.5)
        self.note(f"first engine: {'ready' if ready(log) else f'not ready (rc={first.poll()})'}")
        time.sleep(3)
        try:
            super().run()
        finally:
            kill(first)


if __name__ == "__main__":
    g.Case = FirstCase
    g.main()
