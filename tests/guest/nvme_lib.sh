# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# What the NVMe/RDMA guest scripts share (nvme_host.sh, nvmet.sh): finding
# a namespace's block device and fio's own data verification.  Needs
# lib.sh's t_eq/t_run and OUT.

ns_dev() # NSID: the block device(s) of namespace NSID, one a controller
{
	local d
	for d in /sys/block/nvme*n*; do
		[[ ${d##*/} =~ ^nvme[0-9]+n[0-9]+$ ]] || continue
		[ "$(cat "$d/nsid" 2>/dev/null)" = "$1" ] && echo "/dev/${d##*/}"
	done
}

# fio_verify DEV JOB_MIB OFFSET_MIB NAME: two jobs of random writes, 4 KiB
# to 1 MiB, 32 deep, each in its own JOB_MIB region of DEV from OFFSET_MIB
# on (offset_increment keeps them apart), then every block read back and
# checked against its crc32c.  A failed check ends its job with EILSEQ
# (verify_fatal), so "no verify error" is: fio exits 0, every job's error
# is 0 with JOB_MIB written and as many bytes verified (read), and fio
# printed none of its words for a bad block ("verify: bad magic header",
# "crc32c: verify failed at file ...").  Its JSON in $OUT/NAME.json, its
# stderr in $OUT/NAME.err.
fio_verify()
{
	local dev=$1 mib=$2 offset=$3 json=$OUT/$4.json err=$OUT/$4.err rc=0
	timeout 900 fio --name=verify --filename="$dev" --ioengine=libaio --direct=1 \
		--rw=randwrite --bsrange=4k-1m --iodepth=32 --numjobs=2 \
		--offset=${offset}m --size=${mib}m --offset_increment=${mib}m \
		--verify=crc32c --verify_fatal=1 --verify_state_save=0 \
		--eta=never --output-format=json --output="$json" 2>"$err" || rc=$?
	sed 's/^/#   fio: /' "$err"
	t_eq "fio verify=crc32c (randwrite 4k-1m, iodepth 32, 2 jobs) exits 0" 0 echo $rc
	# fio may print a warning (several writers) before the JSON document.
	t_eq "fio: per job error 0, $mib MiB written and all of it verified" \
		"$(printf '0 %d %d\n' $((mib << 20)) $((mib << 20)) $((mib << 20)) $((mib << 20)))" \
		python3 -c 'import json, sys
s = open(sys.argv[1]).read()
for j in json.loads(s[s.index("{"):])["jobs"]:
    print(j["error"], j["write"]["io_bytes"], j["read"]["io_bytes"])' "$json"
	t_run "fio: no verify failure reported" eval "! grep -Eqi 'verify( failed|:)|bad magic' $err"
	echo "# fio: $(python3 -c 'import json, sys
s = open(sys.argv[1]).read()
for j in json.loads(s[s.index("{"):])["jobs"]:
    print(f"""{j["write"]["io_bytes"] >> 10} KiB written ({j["write"]["bw"]} KiB/s), {j["read"]["io_bytes"] >> 10} KiB verified ({j["read"]["bw"]} KiB/s);""")' "$json" 2>&1 | tr '\n' ' ')"
}
