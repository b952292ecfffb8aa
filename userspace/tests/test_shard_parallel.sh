#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The sharding recipes of docs/sharding on a batch engine this machine has:
# GNU parallel runs route-shard.sh for every shard index, two at a time,
# as a Kubernetes Indexed Job or a Slurm array would, then route-merge.sh
# joins them; the merged file must be the very bytes of the whole set
# computed in one run, and route-merge.sh's CBD check must pass.  A shard
# already done is kept (a retried task), a missing one stops the merge.
# Then the Kubernetes manifests' commands, as written in them, with
# JOB_COMPLETION_INDEX from GNU parallel and their volume a directory
# here, and slurm-routes.sh against an sbatch that runs the array's tasks
# on GNU parallel with SLURM_ARRAY_TASK_ID and the dependent merge after.
#
# Run by run-ktap without its wrapper: valgrind would trace parallel.

set -u
here=$(cd "$(dirname "$0")/.." && pwd)
docs=$here/../docs/sharding
SLUICECTL=${SLUICECTL:-$here/sluicectl/sluicectl}
case $SLUICECTL in /*) ;; *) SLUICECTL=$(pwd)/$SLUICECTL ;; esac
export SLUICECTL
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/ktap.sh"

ktap_plan 7

n=5
"$SLUICECTL" topo gen fc --switches 120 --inter-ports 16 --host-ports 2 \
	--layers 3 --seed 7 -o "$tmp/fc.json" &&
	"$SLUICECTL" route compute --topo "$tmp/fc.json" --algo fc \
		--threads 2 -o "$tmp/whole.routes" >/dev/null
result $? "the whole set, one run" "sluicectl failed"

out=$(parallel --version 2>&1 | head -n 1)
case $out in
"GNU parallel"*)
	out=$(seq 0 $((n - 1)) | parallel --will-cite -j 2 --halt now,fail=1 \
		sh "$docs/route-shard.sh" {} "$n" "$tmp/fc.json" "$tmp/out" \
		--algo fc --threads 1 2>&1)
	rc=$? ;;
*)
	rc=1
	out="not GNU parallel: $out (scripts/bootstrap installs it)" ;;
esac
result $rc "GNU parallel runs route-shard.sh for shards 0 to $((n - 1)) of $n" "$out"

out=$(sh "$docs/route-merge.sh" "$n" "$tmp/fc.json" "$tmp/out" 2>&1)
rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "^cbd-free yes " &&
	cmp -s "$tmp/whole.routes" "$tmp/out/routes"
result $? "route-merge.sh: the whole set's bytes, CBD-free" \
	"route-merge.sh exited $rc: $out" \
	"$(cmp "$tmp/whole.routes" "$tmp/out/routes" 2>&1)"

# a retried shard is not computed again: its file stays as it was
touch -d @0 "$tmp/out/shard-2-of-$n.routes"
sh "$docs/route-shard.sh" 2 "$n" "$tmp/fc.json" "$tmp/out" --algo fc \
	>/dev/null &&
	[ "$(stat -c %Y "$tmp/out/shard-2-of-$n.routes")" -eq 0 ]
result $? "route-shard.sh keeps a shard already done" "rewritten"

# the index from the engine's variable; a missing shard stops the merge
rm "$tmp/out/shard-3-of-$n.routes" "$tmp/out/routes"
out=$(sh "$docs/route-merge.sh" "$n" "$tmp/fc.json" "$tmp/out" 2>&1)
rc=$?
[ $rc -eq 1 ] && [ ! -e "$tmp/out/routes" ] &&
	[ "$out" = "route-merge.sh: $tmp/out/shard-3-of-$n.routes is missing: shard 3/$n not done" ] &&
	JOB_COMPLETION_INDEX=3 sh "$docs/route-shard.sh" "" "$n" \
		"$tmp/fc.json" "$tmp/out" --algo fc >/dev/null &&
	sh "$docs/route-merge.sh" "$n" "$tmp/fc.json" "$tmp/out" >/dev/null &&
	cmp -s "$tmp/whole.routes" "$tmp/out/routes"
result $? "a missing shard named; JOB_COMPLETION_INDEX fills it in" \
	"route-merge.sh exited $rc: $out"

# The manifests' commands (a JSON array on their "command:" line), /data
# being $tmp/data, with the image's PATH: the scripts and sluicectl.
k8s_cmd() {
	sed -n 's/^ *command: //p' "$docs/$1" | jq -r '.[]' |
		sed "s|^/data|$tmp/data|"
}
mkdir -p "$tmp/data" "$tmp/bin"
cp "$tmp/fc.json" "$tmp/data/fc.json"
ln -s "$SLUICECTL" "$tmp/bin/sluicectl"
ln -s "$docs/route-shard.sh" "$docs/route-merge.sh" "$tmp/bin/"
out=$(
	export PATH="$tmp/bin:$PATH"
	unset SLUICECTL
	k8s_cmd k8s-shards.yaml > "$tmp/shard.args" &&
	count=$(sed -n 3p "$tmp/shard.args") &&
	seq 0 $((count - 1)) | parallel --will-cite -j 2 --halt now,fail=1 \
		'JOB_COMPLETION_INDEX={} xargs -d "\n" -a' "$tmp/shard.args" \
		env '>/dev/null' 2>&1 &&
	k8s_cmd k8s-merge.yaml | xargs -d "\n" env 2>&1)
rc=$?
[ $rc -eq 0 ] && cmp -s "$tmp/whole.routes" "$tmp/data/routes/routes"
result $? "k8s-shards.yaml then k8s-merge.yaml: the whole set's bytes" \
	"exit $rc: $out"

# An sbatch that runs an array's tasks on GNU parallel, a job at once.
cat > "$tmp/bin/sbatch" <<'SBATCH'
#!/bin/sh
array=
while :; do
	case $1 in
	--parsable|--dependency=*) shift ;;
	--array=0-*) array=${1#--array=0-}; shift ;;
	*) break ;;
	esac
done
job=$(( $(cat "$JOBS" 2>/dev/null || echo 100) + 1 ))
echo $job > "$JOBS"
script=$1
shift
export SLURM_SUBMIT_DIR=$(pwd)
if [ -n "$array" ]; then
	seq 0 "$array" | parallel --will-cite -j 2 --halt now,fail=1 \
		SLURM_ARRAY_TASK_ID={} sh "$script" "$@" '>/dev/null' || exit 1
else
	sh "$script" "$@" > "$SLURM_OUT" || exit 1
fi
echo $job
SBATCH
chmod +x "$tmp/bin/sbatch"
out=$(cd "$docs" && PATH="$tmp/bin:$PATH" JOBS="$tmp/jobs" \
	SLURM_OUT="$tmp/slurm.out" \
	sh ./slurm-routes.sh 4 "$tmp/fc.json" "$tmp/slurm" --algo fc 2>&1)
rc=$?
[ $rc -eq 0 ] && [ "$out" = "shards 101 merge 102" ] &&
	grep -q "^cbd-free yes " "$tmp/slurm.out" &&
	cmp -s "$tmp/whole.routes" "$tmp/slurm/routes"
result $? "slurm-routes.sh: the array of 4, the merge after it, the whole set's bytes" \
	"exit $rc: $out"

ktap_exit
