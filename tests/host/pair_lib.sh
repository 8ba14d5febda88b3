# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Sourced by the host sides of the two-guest lanes (wire.sh, cm_wire.sh):
# what a pair "A-B" means and where its logs go, and the capture's check.
#
# pair_setup LANE PAIR A_ADDRS B_ADDRS sets
#   a, b       the stacks of guests a (server) and b (client)
#   cap        the guest that captures: the stock one of a mixed pair, else a
#   ours       the addresses of the guests running ours (for wire-check.py)
#   out        build/test-logs/LANE-PAIR (-LINE for kernels other than
#              6.1), emptied
# and exits 2 on a pair that is not two of ours|stock.
. scripts/lib/target.sh
pair_setup()
{
	local lane=$1 s
	pair=$2 a_addrs=$3 b_addrs=$4
	a=${pair%-*} b=${pair#*-}
	for s in "$a" "$b"; do
		case "$s" in ours|stock) ;; *) echo "$lane: bad pair $pair" >&2; exit 2 ;; esac
	done
	cap=a
	[ "$a" = ours ] && [ "$b" = stock ] && cap=b
	ours=
	[ "$a" = ours ] && ours=$a_addrs
	[ "$b" = ours ] && ours=${ours:+$ours,}$b_addrs
	out=build/test-logs/$lane-$pair${OOT_KERNEL:+-$OOT_KERNEL}
	out=${out%-6.1}
	rm -rf "$out"
	mkdir -p "$out"
	# The guests compute RoCE's CRC without crc32_pclmul: under QEMU's TCG
	# a stock server, which runs every packet ours sends through the
	# crypto API's crc32 (that SSE/PCLMUL module), has taken a #DB with
	# EFLAGS no guest code can load (TF and reserved bits, copied from a
	# register) and double faults.  crc32_generic gives the same CRC.
	export OOT_APPEND="${OOT_APPEND:+$OOT_APPEND }module_blacklist=crc32_pclmul"
}

# wire_check TAG PCAP [--tests TSV]: every frame of the capture dissected
# and ICRC-checked (tests/host/wire-check.py), per direction between a and b;
# by the tshark of the guests' distribution (trixie's 4.4 decodes RDMA
# FLUSH, which bookworm's 4.0 calls an unknown opcode)
wire_check()
{
	local tag=$1 pcap=$2 root
	shift 2
	root=$(target_root "${OOT_KERNEL:-$(target_default_line)}")
	[ "$root" = / ] || export OOT_TSHARK_ROOT=$root
	tests/host/wire-check.py --tag "$tag" --ours "$ours" \
		--guest "a($a)=$a_addrs" --guest "b($b)=$b_addrs" "$@" "$pcap"
}
