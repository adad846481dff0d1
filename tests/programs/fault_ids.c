/* getuid and friends, for -e inject=...:retval= (tests/faults/test_exec_and_children.py); built both
 * 64-bit and with -m32, where the 32-bit-id calls (getuid32...) exist as well. */
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
    syscall(SYS_getuid);
    syscall(SYS_geteuid);
    syscall(SYS_getgid);
    syscall(SYS_getegid);
#ifdef SYS_getuid32
    syscall(SYS_getuid32);
    syscall(SYS_geteuid32);
    syscall(SYS_getgid32);
    syscall(SYS_getegid32);
#endif
    return 0;
}
