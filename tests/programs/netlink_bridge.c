/* Crafted bridge rtnetlink messages for the netlink_bridge decoder tests (run in a fresh
 * network namespace, where the kernel refuses them all and echoes each back in NLMSG_ERROR).
 *
 * An AF_BRIDGE RTM_SETLINK whose IFLA_AF_SPEC holds every IFLA_BRIDGE_* form (flags with an
 * unknown bit, the three modes and an unknown one, bridge_vlan_info with trailing bytes and
 * a short one, a VLAN tunnel nest, MRP and an unknown type, both left in hex); RTM_NEWMDB
 * with an MDBA_MDB entry whose br_mdb_entry says AF_INET / AF_INET6 / an ethertype in
 * addr.proto, followed by MDBA_MDB_EATTR_* attributes, a short entry, and an MDBA_ROUTER
 * port with MDBA_ROUTER_PATTR_* attributes; a br_port_msg shorter than its header; and
 * RTM_SETDCB / RTM_GETDCB with a known command, an unknown one and a short dcbmsg.
 */
#include <arpa/inet.h>
#include <linux/dcbnl.h>
#include <linux/if_bridge.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static char msg[1024], reply[8192];
static unsigned int len, seq;

static void start(uint16_t type, const void *hdr, unsigned int hdr_len)
{
	struct nlmsghdr *h = (struct nlmsghdr *) msg;
	memset(msg, 0, sizeof(msg));
	h->nlmsg_type = type;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	h->nlmsg_seq = ++seq;
	memcpy(msg + NLMSG_HDRLEN, hdr, hdr_len);
	len = NLMSG_HDRLEN + NLMSG_ALIGN(hdr_len);
}

/* An attribute at the end of the message; returns its offset, for nest_end. */
static unsigned int attr(uint16_t type, const void *data, unsigned int data_len)
{
	struct nlattr *a = (struct nlattr *) (msg + len);
	unsigned int at = len;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + data_len;
	if (data_len)
		memcpy(msg + len + NLA_HDRLEN, data, data_len);
	len += NLA_ALIGN(a->nla_len);
	return at;
}

static void nest_end(unsigned int at)
{
	((struct nlattr *) (msg + at))->nla_len = len - at;
}

static void u16_attr(uint16_t type, uint16_t v) { attr(type, &v, sizeof(v)); }
static void u32_attr(uint16_t type, uint32_t v) { attr(type, &v, sizeof(v)); }

static void send_and_read(int fd)
{
	((struct nlmsghdr *) msg)->nlmsg_len = len;
	sendto(fd, msg, len, 0, NULL, 0);
	recv(fd, reply, sizeof(reply), 0);
}

static void mdb_entry(uint16_t proto, const void *group, unsigned int group_len, int with_eattrs)
{
	struct br_mdb_entry e;
	memset(&e, 0, sizeof(e));
	e.ifindex = 1;
	e.state = MDB_PERMANENT;
	e.flags = MDB_FLAGS_OFFLOAD | MDB_FLAGS_STAR_EXCL | 0x40;
	e.vid = 10;
	memcpy(&e.addr.u, group, group_len);
	e.addr.proto = htons(proto);
	unsigned int entry = attr(MDBA_MDB_ENTRY | NLA_F_NESTED, NULL, 0);
	unsigned int info = attr(MDBA_MDB_ENTRY_INFO, &e, sizeof(e));
	if (with_eattrs) {
		u32_attr(MDBA_MDB_EATTR_TIMER, 2500);
		u16_attr(MDBA_MDB_EATTR_GROUP_MODE, 1);
		u32_attr(42, 7);
	}
	nest_end(info);
	nest_end(entry);
}

int main(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	bind(fd, (struct sockaddr *) &nl, sizeof(nl));  /* bound: tracers learn the protocol of bound sockets only */
	struct ifinfomsg ifi = { .ifi_family = AF_BRIDGE, .ifi_index = 1 };
	struct br_port_msg bpm = { .family = AF_BRIDGE, .ifindex = 1 };
	struct dcbmsg dcb = { .dcb_family = AF_UNSPEC, .cmd = DCB_CMD_SSTATE };

	/* IFLA_AF_SPEC of AF_BRIDGE */
	start(RTM_SETLINK, &ifi, sizeof(ifi));
	unsigned int spec = attr(IFLA_AF_SPEC | NLA_F_NESTED, NULL, 0);
	u16_attr(IFLA_BRIDGE_FLAGS, BRIDGE_FLAGS_SELF | 0x10);
	u16_attr(IFLA_BRIDGE_MODE, BRIDGE_MODE_VEPA);
	u16_attr(IFLA_BRIDGE_MODE, BRIDGE_MODE_UNDEF);
	u16_attr(IFLA_BRIDGE_MODE, 7);
	struct { struct bridge_vlan_info v; uint8_t extra[3]; } vlan = {
		{ BRIDGE_VLAN_INFO_PVID | BRIDGE_VLAN_INFO_UNTAGGED | 0x100, 10 }, { 1, 2, 3 } };
	attr(IFLA_BRIDGE_VLAN_INFO, &vlan, sizeof(vlan.v));
	attr(IFLA_BRIDGE_VLAN_INFO, &vlan, sizeof(vlan));
	attr(IFLA_BRIDGE_VLAN_INFO, &vlan, 2);
	unsigned int tunnel = attr(IFLA_BRIDGE_VLAN_TUNNEL_INFO | NLA_F_NESTED, NULL, 0);
	u32_attr(IFLA_BRIDGE_VLAN_TUNNEL_ID, 1000);
	u16_attr(IFLA_BRIDGE_VLAN_TUNNEL_VID, 20);
	u16_attr(IFLA_BRIDGE_VLAN_TUNNEL_FLAGS, BRIDGE_VLAN_INFO_RANGE_BEGIN);
	u32_attr(9, 1);
	nest_end(tunnel);
	u32_attr(IFLA_BRIDGE_MRP, 0x01020304);
	u32_attr(12, 5);
	nest_end(spec);
	send_and_read(fd);

	/* RTM_NEWMDB: MDBA_MDB entries and MDBA_ROUTER ports */
	start(RTM_NEWMDB, &bpm, sizeof(bpm));
	unsigned int mdb = attr(MDBA_MDB | NLA_F_NESTED, NULL, 0);
	uint32_t ip4 = htonl(0xef010203);
	uint8_t ip6[16] = { 0xff, 0x0e, [15] = 0x07 };
	mdb_entry(AF_INET, &ip4, sizeof(ip4), 1);
	mdb_entry(AF_INET6, ip6, sizeof(ip6), 0);
	mdb_entry(0x0800, &ip4, sizeof(ip4), 0);
	attr(MDBA_MDB_ENTRY_INFO, &ip4, sizeof(ip4));  /* directly in MDBA_MDB: named MDBA_MDB_ENTRY */
	unsigned int short_entry = attr(MDBA_MDB_ENTRY, NULL, 0);
	attr(MDBA_MDB_ENTRY_INFO, &ip4, sizeof(ip4));  /* shorter than br_mdb_entry */
	nest_end(short_entry);
	nest_end(mdb);
	unsigned int router = attr(MDBA_ROUTER | NLA_F_NESTED, NULL, 0);
	uint32_t port = 1;
	unsigned int rport = attr(MDBA_ROUTER_PORT, &port, sizeof(port));
	u32_attr(MDBA_ROUTER_PATTR_TIMER, 100);
	uint8_t type = MDB_RTR_TYPE_TEMP_QUERY;
	attr(MDBA_ROUTER_PATTR_TYPE, &type, 1);
	type = 9;
	attr(MDBA_ROUTER_PATTR_TYPE, &type, 1);
	u32_attr(MDBA_ROUTER_PATTR_INET6_TIMER, 12345);
	nest_end(rport);
	attr(MDBA_ROUTER_PORT, &port, 2);
	attr(MDBA_ROUTER_PORT, &port, sizeof(port));
	nest_end(router);
	u32_attr(7, 1);
	send_and_read(fd);

	/* a br_port_msg shorter than its header */
	start(RTM_GETMDB, &bpm, 2);
	len = NLMSG_HDRLEN + 2;
	send_and_read(fd);

	/* DCB */
	start(RTM_SETDCB, &dcb, sizeof(dcb));
	attr(DCB_ATTR_IFNAME, "lo", 3);
	uint8_t state = 1;
	attr(DCB_ATTR_STATE, &state, 1);
	attr(99, &state, 1);
	send_and_read(fd);
	dcb.cmd = 77;
	start(RTM_GETDCB, &dcb, sizeof(dcb));
	send_and_read(fd);
	start(RTM_GETDCB, &dcb, 2);
	len = NLMSG_HDRLEN + 2;
	send_and_read(fd);

	close(fd);
	return 0;
}
