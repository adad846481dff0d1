/* Crafted rtnetlink requests for the tc action / stats / cache report / VF decoders (run in a fresh netns).
 *
 * No iproute2 command sends these attributes on this machine (no SR-IOV device, no multicast routing
 * daemon, no bond or MPLS module), so each message is built by hand and sent with sendto to a
 * NETLINK_ROUTE socket; strace decodes the request whatever the kernel answers, and the kernel's
 * NLMSG_ERROR replies (read with recvfrom) carry the requests back.
 *
 *  - RTM_NEWCACHEREPORT for RTNL_FAMILY_IPMR, RTNL_FAMILY_IP6MR, AF_INET and an unknown family;
 *  - RTM_NEWLINK with IFLA_VFINFO_LIST (every IFLA_VF_* kind, short and unknown ones), IFLA_VF_PORTS,
 *    IFLA_PORT_SELF, IFLA_STATS64 of 24 fields, IFLA_STATS of 23, IFLA_NET_NS_FD;
 *  - RTM_GETSTATS with padding set and bridge/bond/offload/AF_MPLS statistics attributes, and one shorter
 *    than struct if_stats_msg;
 *  - RTM_NEWACTION with the TCA_ACT_* attributes strace decodes at the top level.
 */
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static char msg[8192];
static unsigned int pos;
static char buf[32768];

static void start(uint16_t type, uint16_t flags, const void *hdr, unsigned int hdrlen)
{
	memset(msg, 0, sizeof(msg));
	struct nlmsghdr *h = (struct nlmsghdr *) msg;
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = 1;
	memcpy(msg + NLMSG_HDRLEN, hdr, hdrlen);
	pos = NLMSG_HDRLEN + NLMSG_ALIGN(hdrlen);
}

static void put(uint16_t type, const void *data, unsigned int len)
{
	struct nlattr *a = (struct nlattr *) (msg + pos);
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy(msg + pos + NLA_HDRLEN, data, len);
	pos += NLA_ALIGN(a->nla_len);
}

static void put_u8(uint16_t type, uint8_t v) { put(type, &v, 1); }
static void put_u16(uint16_t type, uint16_t v) { put(type, &v, 2); }
static void put_u32(uint16_t type, uint32_t v) { put(type, &v, 4); }
static void put_u64(uint16_t type, uint64_t v) { put(type, &v, 8); }

static unsigned int nest(uint16_t type)
{
	unsigned int at = pos;
	put(type, NULL, 0);
	return at;
}

static void end(unsigned int at)
{
	((struct nlattr *) (msg + at))->nla_len = pos - at;
}

static void u32s(uint32_t *out, unsigned int n, uint32_t first)
{
	for (unsigned int i = 0; i < n; i++)
		out[i] = first + i;
}

static void send_and_drain(int fd)
{
	((struct nlmsghdr *) msg)->nlmsg_len = pos;
	sendto(fd, msg, pos, 0, NULL, 0);
	recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT, NULL, NULL);
}

static void cachereports(int fd)
{
	static const uint8_t families[] = { RTNL_FAMILY_IPMR, RTNL_FAMILY_IP6MR, AF_INET, 200 };
	for (unsigned int i = 0; i < sizeof(families); i++) {
		uint8_t family[4] = { families[i] };
		start(RTM_NEWCACHEREPORT, NLM_F_REQUEST | NLM_F_ACK, family, 1);
		put_u8(1, i == 3 ? 9 : 1 + i);           /* *_CREPORT_MSGTYPE (9: unknown) */
		put_u32(2, 3);                           /* VIF_ID / MIF_ID */
		if (families[i] == RTNL_FAMILY_IP6MR) {
			struct in6_addr a6;
			inet_pton(AF_INET6, "2001:db8::1", &a6);
			put(3, &a6, sizeof(a6));
			inet_pton(AF_INET6, "ff02::5", &a6);
			put(4, &a6, sizeof(a6));
		} else {
			struct in_addr a4 = { htonl(0xc0000201) };
			put(3, &a4, sizeof(a4));
			a4.s_addr = htonl(0xe0000005);
			put(4, &a4, sizeof(a4));
			put(4, &a4, 2);                  /* too short for an address */
		}
		put(5, "\x45\x00\x00\x1c\x00\x01", 6);   /* *_CREPORT_PKT */
		put_u32(6, 254);                         /* IPMRA_CREPORT_TABLE (unknown for IP6MR) */
		send_and_drain(fd);
	}
}

static void vf_info(int fd)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	uint32_t w[64];
	uint8_t bytes[64];

	start(RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK, &ifi, sizeof(ifi));
	unsigned int list = nest(IFLA_VFINFO_LIST);
	unsigned int info = nest(NLA_F_NESTED | IFLA_VF_INFO);

	memset(bytes, 0, sizeof(bytes));
	w[0] = 1;
	memcpy(bytes, w, 4);
	memcpy(bytes + 4, "\x02\x00\x00\x00\x00\x07", 6);
	put(IFLA_VF_MAC, bytes, 36);
	put(IFLA_VF_MAC, bytes, 10);                     /* shorter than struct ifla_vf_mac */
	w[0] = 1, w[1] = 100, w[2] = 3;
	put(IFLA_VF_VLAN, w, 12);
	w[1] = 1000;
	put(IFLA_VF_TX_RATE, w, 8);
	w[1] = 1;
	put(IFLA_VF_SPOOFCHK, w, 8);
	w[1] = 2;
	put(IFLA_VF_LINK_STATE, w, 8);
	w[1] = 7;
	put(IFLA_VF_LINK_STATE, w, 8);                   /* unknown state */
	w[1] = 10, w[2] = 100;
	put(IFLA_VF_RATE, w, 12);
	w[1] = 0;
	put(IFLA_VF_RSS_QUERY_EN, w, 8);

	unsigned int stats = nest(IFLA_VF_STATS);
	for (uint16_t t = IFLA_VF_STATS_RX_PACKETS; t <= IFLA_VF_STATS_TX_DROPPED + 1; t++)
		put_u64(t, 1000 + t);
	end(stats);

	w[1] = 1;
	put(IFLA_VF_TRUST, w, 8);
	uint64_t guid[2] = { 2, 0x0123456789abcdefULL };
	put(IFLA_VF_IB_NODE_GUID, guid, 16);
	memcpy(bytes, w, 4);
	memcpy(bytes + 4, &guid[1], 8);
	put(IFLA_VF_IB_PORT_GUID, bytes, 12);
	put(IFLA_VF_IB_PORT_GUID, bytes, 8);                 /* neither 12 nor 16 bytes */

	unsigned int vlans = nest(IFLA_VF_VLAN_LIST);
	struct { uint32_t vf, vlan, qos; uint16_t proto, pad; } vi = { 1, 5, 2, htons(0x8100), 0 };
	put(IFLA_VF_VLAN_INFO, &vi, sizeof(vi));
	vi.proto = htons(0x88a8);
	put(IFLA_VF_VLAN_INFO, &vi, sizeof(vi));
	vi.proto = htons(0x1234);
	put(IFLA_VF_VLAN_INFO, &vi, sizeof(vi));
	put(2, &vi, 4);                                      /* IFLA_VF_VLAN_INFO_??? */
	end(vlans);

	memset(bytes, 0xff, 32);
	put(IFLA_VF_BROADCAST, bytes, 32);
	put_u32(IFLA_VF_BROADCAST + 5, 9);                   /* IFLA_VF_??? */
	end(info);
	put_u32(IFLA_VF_INFO + 1, 3);                        /* IFLA_VF_INFO_??? */
	end(list);

	unsigned int ports = nest(IFLA_VF_PORTS);
	unsigned int port = nest(IFLA_VF_PORT);
	put_u32(IFLA_PORT_VF, 1);
	put(IFLA_PORT_PROFILE, "prof", 5);
	put(IFLA_PORT_VSI_TYPE, "\x01\x0a\x0b\x0c\x04\x00\x00\x09", 8);
	put(IFLA_PORT_INSTANCE_UUID, "0123456789abcdef", 16);
	put(IFLA_PORT_HOST_UUID, "fedcba9876543210", 16);
	put_u8(IFLA_PORT_REQUEST, 2);
	put_u16(IFLA_PORT_RESPONSE, 256);
	put_u32(IFLA_PORT_RESPONSE + 1, 5);                  /* unknown: named IFLA_VF_PORT_??? by strace */
	end(port);
	put_u32(IFLA_VF_PORT + 1, 6);
	end(ports);

	unsigned int self = nest(IFLA_PORT_SELF);
	put(IFLA_PORT_PROFILE, "self", 5);
	put(IFLA_PORT_VSI_TYPE, "\x02\x01\x02\x03\x05\x00\x00\x00", 8);
	put(IFLA_PORT_VSI_TYPE, "\x02\x01", 2);
	end(self);

	uint64_t s64[25];
	for (unsigned int i = 0; i < 25; i++)
		s64[i] = 100 + i;
	put(IFLA_STATS64, s64, 24 * 8);                      /* up to rx_nohandler */
	put(IFLA_STATS64, s64, 23 * 8 + 4);                  /* no known size: hex */
	u32s(w, 23, 10);
	put(IFLA_STATS, w, 23 * 4);                          /* up to tx_compressed */
	put_u32(IFLA_NET_NS_FD, (uint32_t) fd);
	send_and_drain(fd);
}

static void stats(int fd)
{
	struct { uint8_t family, pad1; uint16_t pad2; uint32_t ifindex, filter_mask; } ism = { 0, 1, 2, 1, 0x42 };
	uint64_t q[32];

	for (unsigned int i = 0; i < 32; i++)
		q[i] = i;
	start(RTM_GETSTATS, NLM_F_REQUEST, &ism, sizeof(ism));
	put(IFLA_STATS_LINK_64, q, 25 * 8);

	unsigned int xs = nest(IFLA_STATS_LINK_XSTATS);
	unsigned int br = nest(LINK_XSTATS_TYPE_BRIDGE);
	struct { uint64_t c[4]; uint16_t vid, flags; uint32_t pad2; uint32_t extra; } vx = {
		{ 1, 2, 3, 4 }, 10, 0x22, 7, 0xdeadbeef };
	put(1 /* BRIDGE_XSTATS_VLAN */, &vx, sizeof(vx));
	vx.pad2 = 0;
	vx.flags = 0x80;
	put(1, &vx, 40);
	put(2 /* BRIDGE_XSTATS_MCAST */, q, 30 * 8);
	put(2, q, 16);
	put(4 /* BRIDGE_XSTATS_STP */, q, 6 * 8);
	put_u32(9, 1);
	end(br);
	unsigned int bond = nest(LINK_XSTATS_TYPE_BOND);
	unsigned int ad = nest(1 /* BOND_XSTATS_3AD */);
	put_u64(0 /* BOND_3AD_STAT_LACPDU_RX */, 11);
	put_u64(8 /* BOND_3AD_STAT_MARKER_UNKNOWN_RX */, 12);
	put_u64(9 /* BOND_3AD_STAT_PAD */, 0);
	put_u64(12, 13);
	end(ad);
	end(bond);
	end(xs);

	unsigned int off = nest(IFLA_STATS_LINK_OFFLOAD_XSTATS);
	put(IFLA_OFFLOAD_XSTATS_CPU_HIT, q, 23 * 8);
	end(off);

	unsigned int af = nest(IFLA_STATS_AF_SPEC);
	unsigned int mpls = nest(28 /* AF_MPLS */);
	put(1 /* MPLS_STATS_LINK */, q, 9 * 8);
	end(mpls);
	unsigned int inet = nest(AF_INET);
	put_u32(1, 2);
	end(inet);
	end(af);
	send_and_drain(fd);

	start(RTM_GETSTATS, NLM_F_REQUEST | NLM_F_ACK, &ism, 8);   /* shorter than struct if_stats_msg */
	pos = NLMSG_HDRLEN + 8;
	send_and_drain(fd);
}

static void actions(int fd)
{
	uint32_t fam = 0;
	start(RTM_NEWACTION, NLM_F_REQUEST | NLM_F_ACK, &fam, 4);
	unsigned int tab = nest(NLA_F_NESTED | 1);
	put(1, "mirred", 7);
	end(tab);
	put_u32(3, 7);                              /* TCA_ACT_INDEX */
	unsigned int st = nest(4);                  /* TCA_ACT_STATS */
	struct { uint64_t bytes; uint32_t packets, pad; } basic = { 100, 2, 0 };
	put(1 /* TCA_STATS_BASIC */, &basic, 12);
	end(st);
	put(6, "\x01\x02\x03\x04", 4);              /* TCA_ACT_COOKIE */
	put_u32(7, 0x9);                            /* TCA_ACT_FLAGS: NO_PERCPU_STATS|0x8 */
	put_u32(8, 3);                              /* TCA_ACT_HW_STATS */
	put_u32(9, 8);                              /* TCA_ACT_USED_HW_STATS: unknown bit */
	put_u32(10, 1);                             /* TCA_ACT_IN_HW_COUNT */
	put_u32(11, 1);                             /* TCA_ACT_??? */
	send_and_drain(fd);
}

int main(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	bind(fd, (struct sockaddr *) &nl, sizeof(nl));  /* a port id now: sock_diag can name the protocol */
	cachereports(fd);
	vf_info(fd);
	stats(fd);
	actions(fd);
	close(fd);
	return 0;
}
