/* Netlink messages for the netlink decoder tests (run in a fresh network namespace).
 *
 * An RTM_GETLINK dump sent with sendto and read with recvfrom until NLMSG_DONE; a buffer
 * shorter than a header; a request of an unknown type with NLM_F_ACK, whose NLMSG_ERROR
 * reply carries the request back; an RTM_NEWLINK that brings lo up (acknowledged with
 * error=0); a request whose attributes are malformed (no NUL, a length past the end); and
 * sock_diag dumps of a listening TCP socket and a listening unix socket via sendmsg/recvmsg.
 */
#include <linux/if.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static char buf[32768];

static void drain(int fd)
{
	for (;;) {
		ssize_t n = recvfrom(fd, buf, sizeof(buf), 0, NULL, NULL);
		if (n <= 0)
			return;
		struct nlmsghdr *h = (struct nlmsghdr *) buf;
		if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR || !(h->nlmsg_flags & NLM_F_MULTI))
			return;
	}
}

static void diag_dump(int fd, const void *req, size_t len)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	struct iovec iov = { (void *) req, len };
	struct msghdr msg = { .msg_name = &nl, .msg_namelen = sizeof(nl), .msg_iov = &iov, .msg_iovlen = 1 };
	sendmsg(fd, &msg, 0);
	for (;;) {
		iov.iov_base = buf;
		iov.iov_len = sizeof(buf);
		ssize_t n = recvmsg(fd, &msg, 0);
		if (n <= 0 || ((struct nlmsghdr *) buf)->nlmsg_type == NLMSG_DONE)
			return;
	}
}

int main(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	struct {
		struct nlmsghdr h;
		struct ifinfomsg i;
		char attrs[32];
	} req;

	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = NLMSG_LENGTH(sizeof(req.i));
	req.h.nlmsg_type = RTM_GETLINK;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.h.nlmsg_seq = 1;
	sendto(fd, &req, req.h.nlmsg_len, 0, NULL, 0);
	drain(fd);

	sendto(fd, "\x10\0\0\0\x12\0\x01", 7, 0, NULL, 0);  /* shorter than a header */

	req.h.nlmsg_type = 0x7ff;  /* no such rtnetlink type */
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.h.nlmsg_seq = 2;
	sendto(fd, &req, req.h.nlmsg_len, 0, NULL, 0);
	drain(fd);

	req.h.nlmsg_type = RTM_NEWLINK;
	req.h.nlmsg_seq = 3;
	req.i.ifi_index = 1;
	req.i.ifi_flags = IFF_UP;
	req.i.ifi_change = IFF_UP;
	sendto(fd, &req, req.h.nlmsg_len, 0, NULL, 0);
	drain(fd);

	/* RTM_GETLINK with an unterminated IFLA_IFNAME and an attribute running past the end */
	struct nlattr *a = (struct nlattr *) req.attrs;
	a->nla_len = NLA_HDRLEN + 2;
	a->nla_type = IFLA_IFNAME;
	memcpy(req.attrs + NLA_HDRLEN, "lo", 2);
	a = (struct nlattr *) (req.attrs + 8);
	a->nla_len = 200;
	a->nla_type = IFLA_MTU;
	req.h.nlmsg_len = NLMSG_LENGTH(sizeof(req.i)) + 16;
	req.h.nlmsg_type = RTM_GETLINK;
	req.h.nlmsg_flags = NLM_F_REQUEST;
	req.h.nlmsg_seq = 4;
	req.i.ifi_flags = req.i.ifi_change = 0;
	sendto(fd, &req, req.h.nlmsg_len, 0, NULL, 0);
	drain(fd);
	close(fd);

	int tcp = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(4242), .sin_addr = { htonl(INADDR_LOOPBACK) } };
	bind(tcp, (struct sockaddr *) &sin, sizeof(sin));
	listen(tcp, 5);
	int ux = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	memcpy(sun.sun_path, "\0pytrace-netlink", 16);
	bind(ux, (struct sockaddr *) &sun, offsetof(struct sockaddr_un, sun_path) + 16);
	listen(ux, 5);

	int diag = socket(AF_NETLINK, SOCK_RAW, NETLINK_SOCK_DIAG);
	struct {
		struct nlmsghdr h;
		struct inet_diag_req_v2 r;
	} ireq = {
		.h = { sizeof(ireq), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, 5, 0 },
		.r = { .sdiag_family = AF_INET, .sdiag_protocol = IPPROTO_TCP,
		       .idiag_ext = 1 << (INET_DIAG_MEMINFO - 1), .idiag_states = 1 << 10 },
	};
	diag_dump(diag, &ireq, sizeof(ireq));
	struct {
		struct nlmsghdr h;
		struct unix_diag_req r;
	} ureq = {
		.h = { sizeof(ureq), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, 6, 0 },
		.r = { .sdiag_family = AF_UNIX, .udiag_states = -1,
		       .udiag_show = UDIAG_SHOW_NAME | UDIAG_SHOW_PEER | UDIAG_SHOW_RQLEN },
	};
	diag_dump(diag, &ureq, sizeof(ureq));
	return 0;
}
