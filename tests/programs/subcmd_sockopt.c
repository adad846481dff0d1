/* getsockopt/setsockopt at every level strace 6.1's net.c names, with the options it decodes
 * specially (linger, ucred, error, txrehash, BPF filters, ip_mreq, ipv6_mreq, group_req,
 * tpacket_req, packet_mreq, tpacket_stats, icmp_filter, netlink memberships), valid and not.
 * Nothing here depends on the network: multicast joins use the loopback interface and
 * calls that would change lasting state are made to fail. */
#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/icmp.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SO_TXREHASH
#define SO_TXREHASH 74
#endif

static int gs(int fd, int level, int name, void *val, socklen_t len)
{
	socklen_t l = len;
	return getsockopt(fd, level, name, val, &l);
}

int main(void)
{
	int udp = socket(AF_INET, SOCK_DGRAM, 0);
	int udp6 = socket(AF_INET6, SOCK_DGRAM, 0);
	int tcp = socket(AF_INET, SOCK_STREAM, 0);
	int pkt = socket(AF_PACKET, SOCK_DGRAM, 0);
	int nl = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	int icmp = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	int icmp6 = socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6);
	int pair[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, pair);
	int i = 1;
	char buf[256];
	socklen_t len;

	/* SOL_SOCKET */
	gs(udp, SOL_SOCKET, SO_TYPE, &i, sizeof(i));
	gs(udp, SOL_SOCKET, SO_ERROR, &i, sizeof(i));
	gs(udp, SOL_SOCKET, SO_ERROR, &i, 2);
	gs(udp, SOL_SOCKET, SO_SNDBUF, &i, 2);
	gs(udp, SOL_SOCKET, SO_DOMAIN, &i, sizeof(i));
	gs(udp, SOL_SOCKET, SO_PROTOCOL, &i, sizeof(i));
	struct linger lg = { 1, 5 };
	setsockopt(tcp, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	setsockopt(tcp, SOL_SOCKET, SO_LINGER, &lg, 4);
	gs(tcp, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	gs(tcp, SOL_SOCKET, SO_LINGER, &lg, 4);
	gs(tcp, SOL_SOCKET, SO_LINGER, &lg, 6);
	gs(tcp, SOL_SOCKET, SO_LINGER, (void *)0xbadc0de0, sizeof(lg));
	struct ucred uc;
	gs(pair[0], SOL_SOCKET, SO_PEERCRED, &uc, 8);
	gs(pair[0], SOL_SOCKET, SO_PEERCRED, &uc, 4);
	gs(pair[0], SOL_SOCKET, SO_PEERSEC, buf, sizeof(buf));
	gs(pair[0], SOL_SOCKET, SO_PASSCRED, &i, sizeof(i));
	i = 65536;
	setsockopt(udp, SOL_SOCKET, SO_RCVBUF, &i, sizeof(i));
	setsockopt(udp, SOL_SOCKET, SO_RCVBUF, &i, 2);
	setsockopt(udp, SOL_SOCKET, SO_RCVBUF, (void *)0xbadc0de0, sizeof(i));
	i = 1;
	setsockopt(udp, SOL_SOCKET, SO_TXREHASH, &i, sizeof(i));
	setsockopt(udp, SOL_SOCKET, SO_TXREHASH, &i, 2);
	gs(udp, SOL_SOCKET, SO_TXREHASH, &i, sizeof(i));
	gs(udp, SOL_SOCKET, SO_TXREHASH, &i, 2);
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 7, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0xffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog prog = { 4, insns };
	setsockopt(udp, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog));
	setsockopt(udp, SOL_SOCKET, SO_ATTACH_FILTER, &prog, 8);
	struct sock_filter got[8];
	gs(udp, SOL_SOCKET, SO_GET_FILTER, got, 8);
	gs(udp, SOL_SOCKET, SO_GET_FILTER, got, 2);
	setsockopt(udp, SOL_SOCKET, SO_DETACH_FILTER, &i, sizeof(i));
	setsockopt(udp, SOL_SOCKET, SO_BINDTODEVICE, "lo", 3);
	struct timeval tv = { 1, 500 };
	setsockopt(udp, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	gs(udp, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(udp, SOL_SOCKET, 9999, &i, sizeof(i));
	setsockopt(udp, SOL_SOCKET, SO_KEEPALIVE, NULL, sizeof(i));
	setsockopt(udp, SOL_SOCKET, SO_KEEPALIVE, &i, -1);
	len = 4;
	getsockopt(udp, SOL_SOCKET, SO_TYPE, &i, (socklen_t *)0xbadc0de0);
	getsockopt(udp, SOL_SOCKET, SO_TYPE, NULL, &len);
	len = -1;
	getsockopt(udp, SOL_SOCKET, SO_TYPE, &i, &len);

	/* SO_ERROR holding an error: a datagram to a port nobody listens on comes back refused. */
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr = { htonl(INADDR_LOOPBACK) } };
	int probe = socket(AF_INET, SOCK_DGRAM, 0);
	socklen_t salen = sizeof(sa);
	bind(probe, (struct sockaddr *)&sa, sizeof(sa));
	getsockname(probe, (struct sockaddr *)&sa, &salen);
	close(probe);
	int refused = socket(AF_INET, SOCK_DGRAM, 0);
	connect(refused, (struct sockaddr *)&sa, sizeof(sa));
	send(refused, "x", 1, 0);
	struct pollfd pf = { refused, 0, 0 };
	poll(&pf, 1, 1000);
	gs(refused, SOL_SOCKET, SO_ERROR, &i, sizeof(i));
	close(refused);

	/* SOL_IP */
	i = 0x10;
	setsockopt(udp, SOL_IP, IP_TOS, &i, sizeof(i));
	gs(udp, SOL_IP, IP_TTL, &i, sizeof(i));
	gs(udp, SOL_IP, IP_OPTIONS, buf, sizeof(buf));
	struct ip_mreqn mr = { { htonl(0xe0000001) }, { htonl(INADDR_LOOPBACK) }, 1 };
	setsockopt(udp, SOL_IP, IP_ADD_MEMBERSHIP, &mr, sizeof(struct ip_mreq));
	setsockopt(udp, SOL_IP, IP_DROP_MEMBERSHIP, &mr, sizeof(mr));
	setsockopt(udp, SOL_IP, IP_ADD_MEMBERSHIP, &mr, 4);
	struct group_req gr;
	memset(&gr, 0, sizeof(gr));
	gr.gr_interface = 1;
	struct sockaddr_in *sin = (struct sockaddr_in *)&gr.gr_group;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(0xe0000002);
	setsockopt(udp, SOL_IP, MCAST_JOIN_GROUP, &gr, sizeof(gr));
	setsockopt(udp, SOL_IP, MCAST_LEAVE_GROUP, &gr, sizeof(gr));
	setsockopt(udp, SOL_IP, MCAST_LEAVE_GROUP, &gr, 8);
	setsockopt(udp, SOL_IP, 64, buf, 8);    /* IPT_SO_SET_REPLACE */
	gs(udp, SOL_IP, 64, buf, 8);            /* IPT_SO_GET_INFO */
	gs(udp, SOL_IP, 1234, buf, 8);

	/* SOL_IPV6 */
	gs(udp6, SOL_IPV6, IPV6_V6ONLY, &i, sizeof(i));
	i = 5;
	setsockopt(udp6, SOL_IPV6, IPV6_UNICAST_HOPS, &i, sizeof(i));
	struct ipv6_mreq m6;
	inet_pton(AF_INET6, "ff02::1:3", &m6.ipv6mr_multiaddr);
	m6.ipv6mr_ifindex = 1;
	setsockopt(udp6, SOL_IPV6, IPV6_ADD_MEMBERSHIP, &m6, sizeof(m6));
	setsockopt(udp6, SOL_IPV6, IPV6_DROP_MEMBERSHIP, &m6, sizeof(m6));
	setsockopt(udp6, SOL_IPV6, IPV6_JOIN_ANYCAST, &m6, 8);
	setsockopt(udp6, SOL_IPV6, IPV6_LEAVE_ANYCAST, &m6, sizeof(m6));
	memset(&gr, 0, sizeof(gr));
	gr.gr_interface = 1;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&gr.gr_group;
	sin6->sin6_family = AF_INET6;
	inet_pton(AF_INET6, "ff02::1:4", &sin6->sin6_addr);
	setsockopt(udp6, SOL_IPV6, MCAST_JOIN_GROUP, &gr, sizeof(gr));
	setsockopt(udp6, SOL_IPV6, MCAST_LEAVE_GROUP, &gr, sizeof(gr));
	setsockopt(udp6, SOL_IPV6, 64, buf, 8); /* IP6T_SO_SET_REPLACE */
	gs(udp6, SOL_IPV6, 64, buf, 8);         /* IP6T_SO_GET_INFO */
	gs(udp6, SOL_IPV6, 999, buf, 8);

	/* SOL_TCP */
	i = 1;
	setsockopt(tcp, SOL_TCP, TCP_NODELAY, &i, sizeof(i));
	gs(tcp, SOL_TCP, TCP_NODELAY, &i, sizeof(i));
	gs(tcp, SOL_TCP, TCP_MAXSEG, &i, sizeof(i));
	setsockopt(tcp, SOL_TCP, TCP_CONGESTION, "reno", 4);
	gs(tcp, SOL_TCP, TCP_CONGESTION, buf, 16);
	gs(tcp, SOL_TCP, 999, buf, 8);

	/* SOL_UDP */
	setsockopt(udp, SOL_UDP, UDP_CORK, &i, sizeof(i));
	gs(udp, SOL_UDP, UDP_CORK, &i, sizeof(i));

	/* SOL_PACKET */
	gs(pkt, SOL_PACKET, PACKET_VERSION, &i, sizeof(i));
	struct tpacket_stats st;
	gs(pkt, SOL_PACKET, PACKET_STATISTICS, &st, sizeof(st));
	gs(pkt, SOL_PACKET, PACKET_STATISTICS, &st, 6);
	struct tpacket_req req = { 4096, 0, 2048, 0 };
	setsockopt(pkt, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req));
	setsockopt(pkt, SOL_PACKET, PACKET_TX_RING, &req, 8);
	struct packet_mreq pm = { 1, 99, 6, { 1, 2, 3, 4, 5, 6 } };
	setsockopt(pkt, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &pm, sizeof(pm));
	pm.mr_type = PACKET_MR_MULTICAST;
	pm.mr_alen = 3;
	setsockopt(pkt, SOL_PACKET, PACKET_DROP_MEMBERSHIP, &pm, sizeof(pm));
	setsockopt(pkt, SOL_PACKET, PACKET_DROP_MEMBERSHIP, &pm, 4);
	pm.mr_ifindex = 9999;  /* no such interface: the number */
	pm.mr_alen = 20;       /* more than mr_address holds: its 8 bytes */
	setsockopt(pkt, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &pm, sizeof(pm));
	setsockopt(pkt, SOL_PACKET, PACKET_AUXDATA, &i, sizeof(i));
	gs(pkt, SOL_PACKET, 99, buf, 8);

	/* SOL_NETLINK */
	i = 1;
	setsockopt(nl, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &i, sizeof(i));
	setsockopt(nl, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &i, 2);
	unsigned int groups[4];
	gs(nl, SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, groups, sizeof(groups));
	gs(nl, SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, groups, 0);
	gs(nl, SOL_NETLINK, NETLINK_PKTINFO, &i, sizeof(i));
	gs(nl, SOL_NETLINK, NETLINK_NO_ENOBUFS, buf, 8);
	setsockopt(nl, SOL_NETLINK, NETLINK_DROP_MEMBERSHIP, &i, sizeof(i));

	/* SOL_RAW: ICMP_FILTER */
	struct icmp_filter f = { (1 << ICMP_ECHO) | (1 << ICMP_TIMESTAMP) | (1 << 30) };
	setsockopt(icmp, SOL_RAW, ICMP_FILTER, &f, sizeof(f));
	gs(icmp, SOL_RAW, ICMP_FILTER, &f, sizeof(f));
	f.data = ~((1U << ICMP_ECHOREPLY) | (1U << ICMP_DEST_UNREACH));
	setsockopt(icmp, SOL_RAW, ICMP_FILTER, &f, sizeof(f));
	setsockopt(icmp, SOL_RAW, ICMP_FILTER, &f, 2);
	setsockopt(icmp, SOL_RAW, ICMP_FILTER, &f, 0);
	gs(icmp, SOL_RAW, ICMP_FILTER, &f, 8);
	f.data = 0;
	setsockopt(icmp, SOL_RAW, ICMP_FILTER, &f, sizeof(f));
	gs(icmp, SOL_RAW, 7, buf, 8);

	/* SOL_ICMPV6 (no option names in strace 6.1) */
	unsigned int f6[8];
	memset(f6, 0, sizeof(f6));
	setsockopt(icmp6, SOL_ICMPV6, 1, f6, sizeof(f6));
	gs(icmp6, SOL_ICMPV6, 1, f6, sizeof(f6));

	/* Levels whose option names strace knows, and unknown ones: the name of option 1 at each. */
	static const int levels[] = { 40, 100, 101, 132, 136, 256, 257, 258, 259, 260, 261, 262, 264, 265,
				      266, 267, 268, 269, 271, 272, 273, 274, 275, 276, 277, 278, 279,
				      280, 281, 282, 283, 284, 0xffff, 12345 };
	for (unsigned int k = 0; k < sizeof(levels) / sizeof(levels[0]); ++k) {
		gs(udp, levels[k], 1, buf, 4);
		setsockopt(udp, levels[k], 2, buf, 4);
	}
	return 0;
}
