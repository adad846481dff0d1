/* wild_widths: arguments whose upper register half the kernel ignores (or not), with fixed values.
 *
 * Used by tests/faults/test_wild_args.py: each call is printed by strace 6.1 at the width its
 * decoder reads, which pytrace must match (syscall_tables' decode column).  Raw syscall(2) so
 * the registers hold exactly these 64-bit values.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/openat2.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define HIGH 0xdeadbeef00000000ULL

int main(void)
{
	struct iovec iov[2] = {{(void *)"wild", 4}, {(void *)"args", 4}};
	struct open_how how;
	fd_set rfds;
	char buf[16];
	struct timespec bad = {0, 2000000000}; /* EINVAL */

	/* int domain/type/protocol: the kernel (and strace, for domain and type) see AF_INET, SOCK_DGRAM */
	syscall(SYS_socket, 0x100000002ULL, HIGH | SOCK_DGRAM, HIGH | 17);
	syscall(SYS_socket, HIGH | AF_UNIX, HIGH | SOCK_STREAM, 0);
	syscall(SYS_socketpair, HIGH | AF_UNIX, HIGH | SOCK_DGRAM, HIGH, 0);
	/* unsigned long iovcnt: printed unsigned */
	syscall(SYS_readv, -1L, iov, -1L);
	syscall(SYS_writev, -1L, iov, HIGH | 2);
	syscall(SYS_writev, HIGH | 1, iov, 2);
	/* int flags of send/recv/accept4, options of wait4/waitid */
	syscall(SYS_sendto, -1L, "x", 1, HIGH | MSG_DONTWAIT, 0, 0);
	syscall(SYS_recvfrom, HIGH | 0x7fffffff, buf, sizeof(buf), HIGH | MSG_PEEK | MSG_TRUNC, 0, 0);
	syscall(SYS_accept4, -1L, 0, 0, HIGH | SOCK_CLOEXEC);
	syscall(SYS_wait4, HIGH | 0x7ffffff0, 0, HIGH | 1 /* WNOHANG */, 0);
	syscall(SYS_waitid, HIGH | 1 /* P_PID */, 0x7ffffff0, 0, HIGH | 4 /* WEXITED */, 0);
	/* mmap: prot printed from the whole register, flags as strace's unsigned int */
	syscall(SYS_mmap, 0, 4096, HIGH | PROT_READ, HIGH | MAP_PRIVATE | MAP_ANONYMOUS, -1L, 0);
	/* ftruncate's unsigned long length */
	syscall(SYS_ftruncate, -1L, -1L);
	/* openat2: how.flags is a u64, printed whole */
	memset(&how, 0, sizeof(how));
	how.flags = 0x600000000ULL | O_RDONLY;
	syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof(how));
	how.flags = O_RDONLY | O_CLOEXEC;
	syscall(SYS_openat2, HIGH | (uint32_t)AT_FDCWD, "/", &how, sizeof(how));
	/* pselect6 failing with EINVAL (negative nfds): the sets print as [] */
	FD_ZERO(&rfds);
	FD_SET(0, &rfds);
	syscall(SYS_pselect6, -1L, &rfds, 0, 0, 0, 0);
	syscall(SYS_pselect6, HIGH | 1, &rfds, 0, 0, 0, 0);
	FD_ZERO(&rfds);
	syscall(SYS_pselect6, HIGH | 2, &rfds, &rfds, 0, &bad, 0);
	/* kill's int pid and sig: the kernel sees (pid 0x7ffffff0, sig 0) */
	syscall(SYS_kill, HIGH | 0x7ffffff0, HIGH);
	return 0;
}
