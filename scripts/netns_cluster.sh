#!/usr/bin/env bash
# A Ray cluster of two hosts on one Linux machine, each in a network namespace of its own, and a search
# on it whose tasks can only run on the second host: the same bytes as local worker processes, or exit 1.
#
#   sudo scripts/netns_cluster.sh                      # mm:4:7 (about a minute with Ray's start-up)
#   sudo scripts/netns_cluster.sh --game mm:4:8 --checkpoint /tmp/ck   # any treegen solve arguments
#
# Needs root (ip netns, a bridge and two veth pairs), iproute2, and Ray in the environment that runs it
# (pip install -e '.[ray]'). The head (10.77.0.2, namespace tg-head) offers no CPU, so every task goes
# over the bridge to the node (10.77.0.3, namespace tg-node, 2 CPUs); the driver (treegen solve
# --executor ray --address auto) runs on the head, as on a real cluster. Both hosts share this machine's
# disk, so the node finds the head's token (~/.ray/auth_token) where a real second machine would need it
# copied. Everything is torn down on exit, even after a failure or Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--game mm:4:7)
local_args=()  # the same search with local worker processes, for the reference: no checkpoint folder
for ((i = 0; i < ${#args[@]}; i++)); do
  if [ "${args[i]}" = --checkpoint ]; then i=$((i + 1)); else local_args+=("${args[i]}"); fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "netns_cluster: needs root (network namespaces); run it with sudo" >&2
  exit 2
fi
command -v ray >/dev/null || { echo "netns_cluster: ray is not installed: pip install -e '.[ray]'" >&2; exit 2; }

out=
cleanup() {
  ip netns exec tg-node ray stop --force >/dev/null 2>&1 || true
  ip netns exec tg-head ray stop --force >/dev/null 2>&1 || true
  ip netns del tg-head 2>/dev/null || true
  ip netns del tg-node 2>/dev/null || true
  ip link del tgbr0 2>/dev/null || true
  [ -z "$out" ] || rm -rf "$out"
}
trap cleanup EXIT
cleanup  # what an earlier run killed outright may have left
out=$(mktemp -d)

# Two hosts on one bridge: 10.77.0.2 (head) and 10.77.0.3 (node).
ip link add tgbr0 type bridge && ip link set tgbr0 up
for host in head node; do
  ip netns add "tg-$host"
  ip link add "tg-$host-out" type veth peer name eth0 netns "tg-$host"
  ip link set "tg-$host-out" master tgbr0 up
  ip netns exec "tg-$host" ip link set lo up
  ip netns exec "tg-$host" ip link set eth0 up
done
ip netns exec tg-head ip addr add 10.77.0.2/24 dev eth0
ip netns exec tg-node ip addr add 10.77.0.3/24 dev eth0

export RAY_worker_niceness=0  # Ray's workers run at niceness 15 by default; here they do the search
ip netns exec tg-head ray start --head --node-ip-address 10.77.0.2 --port 6379 --num-cpus 0 \
  --include-dashboard false --disable-usage-stats >/dev/null
RAY_AUTH_MODE=token ip netns exec tg-node ray start --address 10.77.0.2:6379 --node-ip-address 10.77.0.3 \
  --num-cpus 2 --disable-usage-stats >/dev/null

# The node registers with the head a few seconds after `ray start` returns: wait for its CPUs.
for _ in $(seq 60); do
  status=$(RAY_AUTH_MODE=token ip netns exec tg-head ray status 2>/dev/null || true)
  grep -q '/2.0 CPU' <<<"$status" && break
  sleep 1
done
grep -q '/2.0 CPU' <<<"$status" || { echo "netns_cluster: the node did not join the head within 60 s" >&2; exit 1; }
echo "netns_cluster: $(grep -c ' node_' <<<"$status") hosts, $(grep -o '[0-9.]*/2.0 CPU' <<<"$status") (all on 10.77.0.3)"

ip netns exec tg-head python -m treegen.cli solve "${args[@]}" --executor ray --address auto -q -o "$out/ray.json"
python -m treegen.cli solve "${local_args[@]}" --workers 2 -q -o "$out/local.json" >/dev/null
if ! cmp -s "$out/ray.json" "$out/local.json"; then
  echo "netns_cluster: the cluster's file differs from local worker processes' (solve ${local_args[*]})" >&2
  exit 1
fi
echo "netns_cluster: solve ${args[*]}: every task ran on the second host; the same bytes as local processes"
