#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The benchmark's entry, where users know it; its pieces (host and guest
# sides, the loss table, the memcpy reference) are together in tests/bench/.
#
#   scripts/bench.sh [--rounds N] [--only REGEX] [--profile] [--pair] [--aa]
#                    [--loss [--netem a|b]]       (tests/bench/host.sh says what each does)
exec "$(dirname "$0")/../tests/bench/host.sh" "$@"
