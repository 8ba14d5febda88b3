#!/usr/bin/env bash
# Fail (exit 1) if a guest kernel log shows any sign of a kernel bug.
# The patterns are the ones that must never appear after a test run
# ("blocked for more than": the hung-task detector, a task in D for 120 s;
# the slab checker's reports, with slub_debug: "BUG kmalloc-64 (Tainted: ...):
# Poison overwritten", without the colon after BUG).
set -u
log=$1
pat='BUG:|WARNING:|Oops|refcount_t:|general protection|KASAN|list_add corruption|list_del corruption|soft lockup|hung task|blocked for more than|Kernel panic|UBSAN|kernel BUG|BUG [-_.:a-zA-Z0-9]+ [(]|Poison overwritten|Redzone|Object padding|Padding overwritten|Freepointer corrupt|Object already free|Wrong object count'
# Strip serial-console escape codes; never drop a line for containing them.
if sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g' "$log" | grep -E -n "$pat"; then
	exit 1
fi
exit 0
