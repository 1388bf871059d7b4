#!/bin/bash
# The last device call of batch fresh-168: fresh-151's go script (tools/gpu_fresh151_go.sh, carried in .gpu/run beside
# this one) after making the plain file /tmp/f168-a-file that two drawn cases point a cache folder at. Before it, one
# call per part .gpu/p0 .. .gpu/p4 (build-bundle.sh /work/main/.gpu 30: five parts of 30 MiB and one of 7 MiB, so that
# the lead's ~31 MiB checkout + one part stays under a call's 64 MiB), each copied into $HOME/stash:
#   mkdir -p $HOME/stash && cp .gpu/pN/part.* $HOME/stash/
# This one carries .gpu/p5, .gpu/run (this script, gpu_fresh151_go.sh, gpu_serve_drive.py, gpu_serve_requests.py, the
# case file), .gpu/models and .gpu/whl; gpu_serve_requests.py applies a case's "ulimit" (gpu_serve_drive.start).
# Usage (from the project root on the device):
#   bash .gpu/run/gpu_fresh168_go.sh TOTAL p5 gpu_serve_requests.py .gpu/run/gpu-fresh168-cases.json LEFT 12 1.0 e01 ... e12
echo not-a-folder > /tmp/f168-a-file
exec bash .gpu/run/gpu_fresh151_go.sh "$@"
