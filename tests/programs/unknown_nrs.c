/* Syscall numbers strace has no name for: one past the x86_64 table (0x7fff) and one in a
 * hole of it (400), between two named calls.  strace always traces such numbers, whatever
 * -e trace= says (qual_flags' defaults), and prints them as syscall_0x...(6 raw args). */
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
    syscall(SYS_getppid);
    syscall(0x7fff, 1, 2, 3, 4, 5, 6);
    syscall(400, 6, 5, 4, 3, 2, 1);
    syscall(SYS_getpid);
    return 0;
}
