#!/bin/sh
# Runs a command at the lowest priority in an autogroup of its own: `nice` alone does not lower a
# process against other autogroups (each session's processes share one), so datagen, builds and
# fixed-node screens started this way leave a timed match's core alone.
#   tools/lowprio.sh springer datagen --out ../datagen/genN ...
setsid sh -c 'echo 19 > /proc/$$/autogroup 2>/dev/null; exec nice -n 19 "$@"' sh "$@"
