#!/usr/bin/env bash
# Boot two guests joined by a QEMU socket network on 127.0.0.1 and run the
# same command in both, each with its own module stack.
#
#   scripts/vm-pair.sh [options] -- COMMAND...
#
#   --a-stack ours|stock   guest a: listens on the socket network, role server
#   --b-stack ours|stock   guest b: connects to it, role client
#   --a-env VAR=VALUE      extra environment for guest a's COMMAND (repeatable)
#   --b-env VAR=VALUE      the same for guest b
#   --out DIR              a's output in DIR/a, b's in DIR/b (default: new
#                          directory under build/vm/)
#   --port PORT            TCP port of the socket network (default: a free one)
#   --mem MB, --smp N, --timeout SECONDS   per guest, as for vm-run.sh
#   --rerun-after-stock-panic   if a guest running the stock stack panics,
#                          show its panic and boot the pair once more
#
# Guest a is 10.0.2.11/24 (MAC 52:54:00:00:00:11), guest b 10.0.2.12/24
# (52:54:00:00:00:12), both on eth0 with their link-local IPv6 addresses;
# the two guests see nothing but each other.  COMMAND runs as with
# vm-run.sh, with WIRE_ROLE (server for a, client for b), WIRE_SELF and
# WIRE_PEER (the IPv4 addresses) in its environment.  Both consoles are
# shown after both are done (b's, then a's).  The exit status is non-zero
# when either guest's is.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

astack=ours bstack=stock out= port= mem=2048 smp=1 timeout=1800 rerun=0
aenv=() benv=()
while [ $# -gt 0 ]; do
	case "$1" in
	--a-stack) astack=$2; shift 2 ;;
	--b-stack) bstack=$2; shift 2 ;;
	--a-env) aenv+=("$2"); shift 2 ;;
	--b-env) benv+=("$2"); shift 2 ;;
	--out) out=$2; shift 2 ;;
	--port) port=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--rerun-after-stock-panic) rerun=1; shift ;;
	--) shift; break ;;
	*) echo "vm-pair: unknown option $1" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "usage: vm-pair.sh [options] -- COMMAND..." >&2; exit 2; }
for v in "${aenv[@]}" "${benv[@]}"; do
	[[ $v =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] ||
		{ echo "vm-pair: bad env $v (VAR=VALUE)" >&2; exit 2; }
done

a_ip=10.0.2.11 b_ip=10.0.2.12
[ -n "$out" ] || out=$top/build/vm/pair-$astack-$bstack-$(date +%s)-$$
mkdir -p "$out"
out=$(cd "$out" && pwd)

listening() { ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }
free_port() # a TCP port on 127.0.0.1 nobody listens on
{
	local p i
	for i in $(seq 50); do
		p=$((20000 + RANDOM % 30000))
		listening "$p" || { echo "$p"; return 0; }
	done
	return 1
}

apid= bpid=
cleanup()
{
	# Each vm-run.sh leads its own process group (setsid): its QEMU goes too.
	[ -z "$apid" ] || kill -- -"$apid" 2>/dev/null || true
	[ -z "$bpid" ] || kill -- -"$bpid" 2>/dev/null || true
}
trap cleanup EXIT

died() # GUEST: its kernel ended the run (vm-run.sh wrote no rc for it)
{
	[ ! -s "$out/$1/rc" ]
}
# panic_excerpt GUEST: what the guest's kernel printed from its first sign
# of trouble to the panic, at most 60 lines
panic_excerpt()
{
	sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g' "$out/$1/kernel-console.log" 2>/dev/null |
		awk '/BUG:|Oops|double fault|general protection|stack guard|Kernel panic/ { on = 1 }
		     on && n < 60 { print; n++ }'
}

# start_guest a|b NET COMMAND...: vm-run.sh for one guest, in the
# background and in its own process group (so that stopping it stops its
# QEMU), output in DIR/GUEST.log; $! is its pid.
start_guest()
{
	local g=$1 net=$2 stack=$astack role=server mac=11 self=$a_ip peer=$b_ip
	local env=("${aenv[@]}")
	shift 2
	if [ "$g" = b ]; then
		stack=$bstack role=client mac=12 self=$b_ip peer=$a_ip
		env=("${benv[@]}")
	fi
	setsid "$here/vm-run.sh" --stack "$stack" --name "wire-$g" --out "$out/$g" \
		--mac "52:54:00:00:00:$mac" --ipv4 "$self/24" --net "$net" \
		--mem "$mem" --smp "$smp" --timeout "$timeout" -- \
		"$(printf '%q ' env WIRE_ROLE=$role WIRE_SELF=$self WIRE_PEER=$peer "${env[@]}")$*" \
		>"$out/$g.log" 2>&1 </dev/null &
}

# run_pair: one boot of both guests.  When one guest's kernel dies (with
# oops=panic and -no-reboot its QEMU exits), the other is stopped at once
# instead of waiting out every test's timeout against a dead peer.  Sets
# arc and brc.
run_pair()
{
	rm -rf "$out/a" "$out/b"
	mkdir -p "$out/a" "$out/b"
	# Guest a's QEMU listens; b's can only connect once it does.  Another user
	# may take the port between the check and QEMU's bind: then a's QEMU exits
	# at once and another port is tried.
	for _ in 1 2 3 4 5; do
		[ -n "$port" ] || port=$(free_port)
		echo "vm-pair: socket network on 127.0.0.1:$port; a ($astack, server) $a_ip, b ($bstack, client) $b_ip"
		start_guest a "listen:$port" "$@"
		apid=$!
		for _ in $(seq 300); do
			listening "$port" && break
			kill -0 "$apid" 2>/dev/null || break
			sleep 0.1
		done
		listening "$port" && break
		wait "$apid" || true
		apid=
		echo "vm-pair: guest a did not listen on $port:"
		tail -n 5 "$out/a.log"
		port=
	done
	[ -n "$apid" ] || { echo "vm-pair: could not start guest a" >&2; exit 2; }

	start_guest b "connect:$port" "$@"
	bpid=$!
	while kill -0 "$apid" 2>/dev/null && kill -0 "$bpid" 2>/dev/null; do
		sleep 1
	done
	# One has ended.  If its kernel died, the other has no peer any more.
	if ! kill -0 "$apid" 2>/dev/null && died a; then
		echo "vm-pair: guest a ended without a result (its kernel died, or it never booted); stopping guest b"
		kill -- -"$bpid" 2>/dev/null || true
	elif ! kill -0 "$bpid" 2>/dev/null && died b; then
		echo "vm-pair: guest b ended without a result (its kernel died, or it never booted); stopping guest a"
		kill -- -"$apid" 2>/dev/null || true
	fi
	set +e
	wait "$apid"
	arc=$?
	wait "$bpid"
	brc=$?
	set -e
	apid= bpid=
	port=
}

run_pair "$@"
# A stock guest whose kernel died: stock's kernel, not ours, so with
# --rerun-after-stock-panic the pair boots once more (the first boot's logs
# kept in DIR/crashed/, its panic shown here).  Ours dying, or stock twice,
# fails as always.
for g in a b; do
	[ "$rerun" = 1 ] || break
	s=$astack
	[ "$g" = a ] || s=$bstack
	if [ "$s" != stock ] || ! died "$g" || [ -z "$(panic_excerpt "$g")" ]; then
		continue
	fi
	echo "vm-pair: guest $g (stock) panicked; its kernel's last words:"
	panic_excerpt "$g" | sed 's/^/#   /'
	rm -rf "$out/crashed"
	mkdir -p "$out/crashed"
	mv "$out/a" "$out/b" "$out/a.log" "$out/b.log" "$out/crashed/"
	echo "vm-pair: booting the pair once more (first boot's logs in $out/crashed)"
	rerun=0
	run_pair "$@"
	break
done
echo "--- guest b ($bstack, client):"
cat "$out/b.log"
echo "--- guest a ($astack, server):"
cat "$out/a.log"
echo "vm-pair: a exit $arc, b exit $brc; logs in $out"
[ "$arc" = 0 ] && [ "$brc" = 0 ]
