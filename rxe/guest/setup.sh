# Sourced by the rxe guest's scripts (run.sh, demo.sh): rxe0 on dummy0
# (loopback on one port), and rxe1 and rxe2 on the two ends of a veth
# pair, the second end in another network namespace (the UDP path
# between two netdevs). Sets g0, g1, g2 (their GID indexes of RoCE v2 over
# IPv4) and in_peer (the prefix that runs a command in that namespace).

# iproute2's ip, not busybox's applet (which busybox sh prefers)
ip() { /usr/local/bin/ip "$@"; }

# The index of a device's RoCE v2 GID of an IPv4 address (as its last 8
# hex digits): GIDs appear shortly after the address does
gid_index() { # DEV HEX8
	for try in 1 2 3 4 5 6 7 8 9 10; do
		for i in 0 1 2 3 4 5 6 7; do
			case $(cat /sys/class/infiniband/$1/ports/1/gids/$i 2>/dev/null) in
			*ffff:$2) echo "$i"; return 0 ;;
			esac
		done
		sleep 1
	done
	echo "RXE-FAIL: no GID of $2 on $1" >&2
	return 1
}

echo "== rxe0 on dummy0"
ip link set lo up
ip link show dummy0 > /dev/null 2>&1 || ip link add dummy0 type dummy
ip addr add 10.0.0.1/24 dev dummy0
ip link set dummy0 up
rdma link add rxe0 type rxe netdev dummy0
g0=$(gid_index rxe0 0a00:0001)
ibv_devinfo -d rxe0 -v | grep -E 'hca_id|XRC|state' || true

echo "== rxe1 on veth0 (10.0.1.1, fd00:1::1), rxe2 on veth1 (10.0.1.2, fd00:1::2) in namespace peer"
mkdir -p /run/netns
ip netns add peer
ip link add veth0 type veth peer name veth1
ip link set veth1 netns peer
ip addr add 10.0.1.1/24 dev veth0
ip -6 addr add fd00:1::1/64 dev veth0 nodad
ip link set veth0 up
ip netns exec peer ip link set lo up
ip netns exec peer ip addr add 10.0.1.2/24 dev veth1
ip netns exec peer ip -6 addr add fd00:1::2/64 dev veth1 nodad
ip netns exec peer ip link set veth1 up
rdma link add rxe1 type rxe netdev veth0
ip netns exec peer rdma link add rxe2 type rxe netdev veth1
rdma link show
g1=$(gid_index rxe1 0a00:0101)
g2=$(gid_index rxe2 0a00:0102)
echo "RXE-GID-INDEX rxe0=$g0 rxe1=$g1 rxe2=$g2"
# What the devices hold before any test: the kernel's own (QP1, its PD, CQ)
rdma resource show | grep 'rxe[0-9]:' > /tmp/res.before
in_peer="ip netns exec peer"
