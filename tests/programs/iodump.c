/* Every call that -e read=/-e write= dump: plain buffers, iovecs, msghdrs and mmsghdrs, on a pipe
 * (fds 3, 4), a datagram socketpair (5, 6) and a file (7) created in the working directory; binary
 * bytes, a buffer longer than 16 bytes, an empty iovec, a failed write and a failed read.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

int main(void)
{
	unsigned char bin[40];
	for (int i = 0; i < 40; i++)
		bin[i] = (unsigned char) (i * 7 + 250);
	int p[2], sv[2];
	char buf[64];
	if (pipe(p) || socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		return 1;
	/* fds: p[0]=3 p[1]=4 sv[0]=5 sv[1]=6 */
	write(p[1], "hello, world\n", 13);
	read(p[0], buf, sizeof(buf));
	write(p[1], bin, sizeof(bin));
	read(p[0], buf, 16);
	read(p[0], buf, sizeof(buf));
	struct iovec wv[3] = {{"abc", 3}, {bin, 20}, {"", 0}};
	writev(p[1], wv, 3);
	char r1[5], r2[30];
	struct iovec rv[2] = {{r1, sizeof(r1)}, {r2, sizeof(r2)}};
	readv(p[0], rv, 2);
	write(99, "bad fd", 6);            /* fails: still dumped for write= */
	read(99, buf, 8);                  /* fails: never dumped */
	send(sv[0], "dgram-one", 9, 0);
	recv(sv[1], buf, sizeof(buf), 0);
	sendto(sv[0], bin, 17, 0, NULL, 0);
	recvfrom(sv[1], buf, sizeof(buf), 0, NULL, NULL);
	struct msghdr mh = {0};
	struct iovec mv[2] = {{"msg-", 4}, {"part2", 5}};
	mh.msg_iov = mv;
	mh.msg_iovlen = 2;
	sendmsg(sv[0], &mh, 0);
	char m1[3], m2[10];
	struct iovec mr[2] = {{m1, 3}, {m2, 10}};
	struct msghdr rh = {0};
	rh.msg_iov = mr;
	rh.msg_iovlen = 2;
	recvmsg(sv[1], &rh, 0);
	struct mmsghdr mm[2];
	memset(mm, 0, sizeof(mm));
	struct iovec a1 = {"first", 5}, a2 = {"second!", 7};
	mm[0].msg_hdr.msg_iov = &a1;
	mm[0].msg_hdr.msg_iovlen = 1;
	mm[1].msg_hdr.msg_iov = &a2;
	mm[1].msg_hdr.msg_iovlen = 1;
	sendmmsg(sv[0], mm, 2, 0);
	char b1[8], b2[8];
	struct iovec c1 = {b1, 8}, c2 = {b2, 8};
	struct mmsghdr rm[2];
	memset(rm, 0, sizeof(rm));
	rm[0].msg_hdr.msg_iov = &c1;
	rm[0].msg_hdr.msg_iovlen = 1;
	rm[1].msg_hdr.msg_iov = &c2;
	rm[1].msg_hdr.msg_iovlen = 1;
	recvmmsg(sv[1], rm, 2, 0, NULL);
	int f = open("iodump.tmp", O_RDWR | O_CREAT | O_TRUNC, 0600);
	pwrite(f, "positional", 10, 3);
	pread(f, buf, 20, 0);
	struct iovec pv[1] = {{"vec", 3}};
	pwritev(f, pv, 1, 0);
	preadv(f, rv, 2, 0);
	close(f);
	unlink("iodump.tmp");
	return 0;
}
