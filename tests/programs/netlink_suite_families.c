/*
 * Crafted netlink messages for the nfnetlink, SELinux and kobject-uevent decoders, the
 * sock_diag attribute fixes and SOL_NETLINK getsockopt (tests/differential/test_netlink_suite_cases.py).
 *
 * Messages that would change kernel state are sent without NLM_F_REQUEST (the kernel ignores
 * them) or in a private network namespace (the test runs the program under unshare -n);
 * strace decodes what was sent regardless of the kernel's answer.
 */
#include <linux/netlink.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_acct.h>
#include <linux/netfilter/nfnetlink_conntrack.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/ipset/ip_set.h>
#include <linux/netfilter/nfnetlink_queue.h>
#include <linux/selinux_netlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <linux/inet_diag.h>
#include <netinet/in.h>
#include <linux/rtnetlink.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

static unsigned char buf[512] __attribute__((aligned(8)));

static void send_nl(int fd, uint16_t type, uint16_t flags, const void *payload, unsigned plen)
{
	struct nlmsghdr *h = (struct nlmsghdr *) buf;
	memset(buf, 0, sizeof(buf));
	h->nlmsg_len = NLMSG_HDRLEN + plen;
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	if (plen)
		memcpy(buf + NLMSG_HDRLEN, payload, plen);
	sendto(fd, buf, h->nlmsg_len, MSG_DONTWAIT, NULL, 0);
}

/* The first message on a socket: both tracers learn the socket's protocol only afterwards. */
static void warm_up(int fd)
{
	send_nl(fd, NLMSG_NOOP, 0, NULL, 0);
}

static void netfilter(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER);
	if (fd < 0)
		return;
	warm_up(fd);
	struct { struct nfgenmsg g; uint16_t nla_len, nla_type; uint32_t v; } p = {
		{ AF_INET, NFNETLINK_V0, htons(0) }, 8, 0x8001, 0xdeadbeef };

	send_nl(fd, NFNL_SUBSYS_ACCT << 8 | NFNL_MSG_ACCT_GET, NLM_F_REQUEST | NLM_F_DUMP, &p.g, sizeof(p.g));
	send_nl(fd, NFNL_SUBSYS_ACCT << 8 | NFNL_MSG_ACCT_NEW, NLM_F_CREATE | NLM_F_EXCL, &p, sizeof(p));
	send_nl(fd, NFNL_SUBSYS_ACCT << 8 | 0xfe, NLM_F_REQUEST, NULL, 0);
	send_nl(fd, NFNL_SUBSYS_CTNETLINK << 8 | IPCTNL_MSG_CT_DELETE, NLM_F_NONREC, &p.g, 3);
	send_nl(fd, NFNL_SUBSYS_CTNETLINK_EXP << 8 | IPCTNL_MSG_EXP_GET, NLM_F_REQUEST | NLM_F_ROOT, NULL, 0);
	send_nl(fd, NFNL_SUBSYS_IPSET << 8 | IPSET_CMD_LIST, NLM_F_REQUEST, &p.g, sizeof(p.g));
	send_nl(fd, NFNL_SUBSYS_QUEUE << 8 | NFQNL_MSG_CONFIG, 0, &p, sizeof(p));
	send_nl(fd, NFNL_SUBSYS_NONE << 8 | 7, NLM_F_REQUEST, NULL, 0);
	send_nl(fd, 0xee << 8 | 7, NLM_F_REQUEST, NULL, 0);
	/* nftables: res_id in host order, in network order, and any other value */
	p.g.res_id = NFNL_SUBSYS_NFTABLES;
	send_nl(fd, NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_NEWTABLE, NLM_F_REPLACE | NLM_F_APPEND, &p, sizeof(p));
	p.g.res_id = htons(NFNL_SUBSYS_NFTABLES);
	send_nl(fd, NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_GETRULE, NLM_F_REQUEST | NLM_F_DUMP, &p.g, sizeof(p.g));
	p.g.res_id = htons(0x1234);
	send_nl(fd, NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_DELSET, NLM_F_NONREC, &p, sizeof(p));
	send_nl(fd, NFNL_MSG_BATCH_BEGIN, 0, &p, sizeof(p));
	send_nl(fd, NFNL_MSG_BATCH_END, 0, &p.g, sizeof(p.g));
	close(fd);
}

static void selinux(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_SELINUX);
	if (fd < 0)
		return;
	warm_up(fd);
	int32_t val = -2;
	uint32_t seq = 0xfedcba98;
	send_nl(fd, SELNL_MSG_SETENFORCE, NLM_F_REQUEST, &val, sizeof(val));
	send_nl(fd, SELNL_MSG_POLICYLOAD, NLM_F_REQUEST, &seq, sizeof(seq));
	send_nl(fd, SELNL_MSG_POLICYLOAD, NLM_F_REQUEST, &seq, 2);
	send_nl(fd, 0x1234, NLM_F_REQUEST, &seq, sizeof(seq));
	close(fd);
}

static void uevent(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return;
	struct {
		char prefix[8];
		uint32_t magic, header_size, properties_off, properties_len;
		uint32_t subsys_hash, devtype_hash, bloom_hi, bloom_lo;
		char props[16];
	} u = { "libudev", htonl(0xfeedcafe), 40, 40, 16, htonl(0x12345678), 0, htonl(1), htonl(0xffffffff),
		"ACTION=add\0A=b" };
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	sendto(fd, "warm-up", 7, MSG_DONTWAIT, (struct sockaddr *) &nl, sizeof(nl));
	sendto(fd, &u, 40, MSG_DONTWAIT, (struct sockaddr *) &nl, sizeof(nl));
	sendto(fd, &u, sizeof(u), MSG_DONTWAIT, (struct sockaddr *) &nl, sizeof(nl));
	sendto(fd, &u, 39, MSG_DONTWAIT, (struct sockaddr *) &nl, sizeof(nl));
	memcpy(u.prefix, "add@/dev", 8);
	sendto(fd, &u, sizeof(u), MSG_DONTWAIT, (struct sockaddr *) &nl, sizeof(nl));
	close(fd);
}

static void diag_and_route(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_SOCK_DIAG);
	if (fd >= 0) {
		warm_up(fd);
		struct { struct unix_diag_msg m; uint16_t nla_len, nla_type; struct unix_diag_vfs v; } u = {
			{ .udiag_family = AF_UNIX, .udiag_type = SOCK_STREAM, .udiag_state = 1 },
			12, UNIX_DIAG_VFS, { .udiag_vfs_ino = 0xabcdef12, .udiag_vfs_dev = 0x801 } };
		send_nl(fd, SOCK_DIAG_BY_FAMILY, NLM_F_DUMP, &u, sizeof(u));
		struct {
			struct inet_diag_req_v2 r;
			uint16_t bc_len, bc_type; struct inet_diag_bc_op op; struct inet_diag_hostcond hc; uint8_t a[4];
			uint16_t p_len, p_type; uint32_t proto;
		} q = {
			{ .sdiag_family = AF_INET, .sdiag_protocol = IPPROTO_TCP, .idiag_states = 1 << 10 },
			4 + 4 + 8 + 4, INET_DIAG_REQ_BYTECODE, { INET_DIAG_BC_S_COND, 4, 8 }, { AF_INET, 8, 80 },
			{ 10, 0, 0, 1 }, 8, INET_DIAG_REQ_PROTOCOL, IPPROTO_MPTCP };
		/* a read-only dump request (strace decodes it as a request because of NLM_F_REQUEST) */
		send_nl(fd, SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, &q, sizeof(q));
		struct { struct inet_diag_msg m; uint16_t nla_len, nla_type; struct tcpvegas_info v; } w = {
			{ .idiag_family = AF_INET, .idiag_state = 10 }, 4 + sizeof(struct tcpvegas_info),
			INET_DIAG_VEGASINFO, { 1, 2, 3, 0xfffffffe } };
		send_nl(fd, SOCK_DIAG_BY_FAMILY, NLM_F_DUMP, &w, sizeof(w));
		close(fd);
	}
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	if (fd >= 0) {
		warm_up(fd);
		int optlen = 4, v = 1;
		setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &v, sizeof(v));
		/* the kernel stores the length it needs (8), then fails to copy: strace shows [4] only */
		getsockopt(fd, SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, (void *) 8, (socklen_t *) &optlen);
		optlen = 3;
		getsockopt(fd, SOL_NETLINK, NETLINK_PKTINFO, &v, (socklen_t *) &optlen);
		optlen = 8;
		getsockopt(fd, SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, buf, (socklen_t *) &optlen);
		struct { struct rtmsg r; uint16_t nla_len, nla_type; struct rta_cacheinfo ci; } r = {
			{ .rtm_family = AF_INET }, 4 + sizeof(struct rta_cacheinfo), RTA_CACHEINFO,
			{ 1, 2, 0xfffffff0, 4, 5, 6, 7, 8 } };
		send_nl(fd, RTM_GETROUTE, NLM_F_DUMP, &r, sizeof(r));
		close(fd);
	}
}

int main(void)
{
	netfilter();
	selinux();
	uevent();
	diag_and_route();
	return 0;
}
