/* Every futex(2) operation strace 6.1's futex.c distinguishes (none of them blocks: the values
 * never match, the timeouts are zero, the PI futexes are free), FUTEX_WAKE_OP's encoded
 * operation in every shape, and futex_waitv(2). */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449
#endif

#define FX(a, op, v, t, a2, v3) \
	syscall(SYS_futex, (long)(a), (long)(op), (long)(v), (long)(t), (long)(a2), (long)(v3))

int main(void)
{
	static uint32_t f1 = 1, f2 = 2, pi;
	struct timespec zero = { 0, 0 };

	FX(&f1, FUTEX_WAIT, 0, &zero, 0, 0);
	FX(&f1, FUTEX_WAIT_PRIVATE, 0, NULL, 0, 0);
	FX(&f1, FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 0, &zero, 0, 0);
	FX(&f1, FUTEX_WAKE, 1, 0, 0, 0);
	FX(&f1, FUTEX_WAKE_PRIVATE, 0x7fffffff, 0, 0, 0);
	FX(&f1, FUTEX_FD, 3, 0, 0, 0);
	FX(&f1, FUTEX_REQUEUE, 1, 2, &f2, 0);
	FX(&f1, FUTEX_REQUEUE_PRIVATE, 0, 0, &f2, 0);
	FX(&f1, FUTEX_CMP_REQUEUE, 1, 2, &f2, 7);
	FX(&f1, FUTEX_CMP_REQUEUE_PRIVATE, 1, 2, &f2, 1);
	FX(&f1, FUTEX_WAKE_OP, 1, 1, &f2, FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_GT, 0));
	FX(&f1, FUTEX_WAKE_OP_PRIVATE, 1, 1, &f2, FUTEX_OP(FUTEX_OP_OPARG_SHIFT | FUTEX_OP_OR, 3, FUTEX_OP_CMP_EQ, 5));
	FX(&f1, FUTEX_WAKE_OP, 1, 1, &f2, (7U << 28) | (0xabcU << 12) | (9U << 24) | 0x123);
	FX(&f1, FUTEX_WAKE_OP, 1, 1, &f2, 0);
	FX(&pi, FUTEX_LOCK_PI, 0, &zero, 0, 0);
	FX(&pi, FUTEX_UNLOCK_PI, 0, 0, 0, 0);
	FX(&pi, FUTEX_TRYLOCK_PI, 0, 0, 0, 0);
	FX(&pi, FUTEX_UNLOCK_PI_PRIVATE, 0, 0, 0, 0);
	FX(&pi, FUTEX_LOCK_PI2, 0, NULL, 0, 0);
	FX(&pi, FUTEX_UNLOCK_PI, 0, 0, 0, 0);
	FX(&pi, FUTEX_LOCK_PI_PRIVATE, 0, (void *)0xbadc0de0, 0, 0);
	FX(&f1, FUTEX_WAIT_BITSET, 0, &zero, 0, FUTEX_BITSET_MATCH_ANY);
	FX(&f1, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 0, &zero, 0, 0x5);
	FX(&f1, FUTEX_WAIT_BITSET, 0, &zero, 0, 0);
	FX(&f1, FUTEX_WAKE_BITSET, 1, 0, 0, FUTEX_BITSET_MATCH_ANY);
	FX(&f1, FUTEX_WAKE_BITSET_PRIVATE, 1, 0, 0, 0x80);
	FX(&f1, FUTEX_WAIT_REQUEUE_PI, 0, &zero, &f2, 0);
	FX(&f1, FUTEX_WAIT_REQUEUE_PI_PRIVATE | FUTEX_CLOCK_REALTIME, 0, &zero, &f2, 0);
	FX(&f1, FUTEX_CMP_REQUEUE_PI, 1, 2, &f2, 1);
	FX(&f1, FUTEX_CMP_REQUEUE_PI_PRIVATE, 1, 2, &f2, 1);
	FX(&f1, 14, 1, 2, &f2, 3);
	FX(&f1, 0x7f | FUTEX_CLOCK_REALTIME, 1, 2, &f2, 3);
	FX(&f1, FUTEX_WAKE | 0x400, 1, 0, 0, 0);
	FX(&f1, FUTEX_WAKE | FUTEX_CLOCK_REALTIME, 1, 0, 0, 0);
	FX(NULL, FUTEX_WAKE, 1, 0, 0, 0);

	struct futex_waitv w[2];
	memset(w, 0, sizeof(w));
	w[0].val = 0;
	w[0].uaddr = (uintptr_t)&f1;
	w[0].flags = FUTEX_32;
	w[1].val = 5;
	w[1].uaddr = (uintptr_t)&f2;
	w[1].flags = FUTEX_32 | FUTEX_PRIVATE_FLAG;
	w[1].__reserved = 1;
	syscall(SYS_futex_waitv, w, 2, 0, &zero, CLOCK_MONOTONIC);
	w[1].__reserved = 0;
	w[1].flags = 0x10;
	syscall(SYS_futex_waitv, w, 2, 0, &zero, CLOCK_MONOTONIC);
	syscall(SYS_futex_waitv, w, 1, 1, NULL, CLOCK_REALTIME);
	syscall(SYS_futex_waitv, NULL, 0, 0, NULL, 99);
	return 0;
}
