/* i386 (-m32) socketcall(2) and ipc(2) multiplexers next to the direct calls glibc makes.
 * strace 6.1 shows every multiplexed call as its subcall (send, recv, semop, shmat...);
 * tests/differential/test_i386_multiplexers.py builds this with gcc -m32 and compares
 * pytrace's -n, -e raw=, -e trace=%class, -c/-C and --seccomp-bpf output with strace's.
 * A forked child makes socketcall/ipc calls too, so -f and --seccomp-bpf see both.
 * The session's programs fixture builds every tests/programs C file for x86_64 too:
 * there it is an empty program.
 */
#ifndef __i386__
int main(void) { return 0; }
#else
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/net.h>
#include <netinet/in.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

/* ipc(2)'s call numbers (the kernel's include/uapi/linux/ipc.h) */
enum { SEMOP = 1, SEMGET = 2, SEMCTL = 3, MSGSND = 11, MSGRCV = 12, MSGGET = 13, MSGCTL = 14,
       SHMAT = 21, SHMDT = 22, SHMGET = 23, SHMCTL = 24 };

#define BAD ((void *)8)
#define W(p) ((unsigned int)(unsigned long)(p))

static void socket_calls(int a, int b)
{
    char buf[32];
    unsigned int sargs[4] = { a, W("data"), 4, 0 };
    syscall(SYS_socketcall, SYS_SEND, sargs);
    unsigned int rargs[4] = { b, W(buf), sizeof buf, MSG_DONTWAIT };
    syscall(SYS_socketcall, SYS_RECV, rargs);
    syscall(SYS_socketcall, SYS_RECV, rargs);                            /* EAGAIN */
    unsigned int toargs[6] = { a, W("to"), 2, 0, 0, 0 };
    syscall(SYS_socketcall, SYS_SENDTO, toargs);
    unsigned int fromargs[6] = { b, W(buf), sizeof buf, 0, 0, 0 };
    syscall(SYS_socketcall, SYS_RECVFROM, fromargs);
    struct iovec iov = { "msg", 3 };
    struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
    unsigned int smargs[3] = { a, W(&mh), 0 };
    syscall(SYS_socketcall, SYS_SENDMSG, smargs);
    struct iovec riov = { buf, sizeof buf };
    struct msghdr rmh = { .msg_iov = &riov, .msg_iovlen = 1 };
    unsigned int rmargs[3] = { b, W(&rmh), 0 };
    syscall(SYS_socketcall, SYS_RECVMSG, rmargs);
    int one = 1, val = 0;
    socklen_t len = sizeof val;
    unsigned int soargs[5] = { a, SOL_SOCKET, SO_PASSCRED, W(&one), sizeof one };
    syscall(SYS_socketcall, SYS_SETSOCKOPT, soargs);
    unsigned int goargs[5] = { a, SOL_SOCKET, SO_TYPE, W(&val), W(&len) };
    syscall(SYS_socketcall, SYS_GETSOCKOPT, goargs);
    syscall(SYS_socketcall, SYS_SEND, BAD);                              /* unreadable array */
    syscall(SYS_socketcall, 99, sargs);                                  /* no such subcall */
    syscall(SYS_socketcall, 0, sargs);
    syscall(SYS_socketcall, -1, sargs);
    /* glibc's send/recv (through socketcall: i386 has no send syscall) and the direct sendto/recvfrom */
    send(a, "libc", 4, 0);
    recv(b, buf, sizeof buf, 0);
    syscall(SYS_sendto, a, "direct", 6, 0, 0, 0);
    syscall(SYS_recvfrom, b, buf, sizeof buf, 0, 0, 0);
    /* a socket call on a file (ENOTSOCK): what -P /dev/null shows */
    int null = open("/dev/null", O_WRONLY);
    unsigned int nargs[4] = { null, W("x"), 1, 0 };
    syscall(SYS_socketcall, SYS_SEND, nargs);
    close(null);
}

static void ipc_calls(void)
{
    int semid = syscall(SYS_ipc, SEMGET, IPC_PRIVATE, 1, 0600, 0, 0);
    struct sembuf sb = { 0, 1, IPC_NOWAIT };
    syscall(SYS_ipc, SEMOP, semid, 1, 0, &sb, 0);
    syscall(SYS_ipc, SEMCTL, semid, 0, IPC_RMID, 0, 0);
    int msqid = syscall(SYS_ipc, MSGGET, IPC_PRIVATE, 0600, 0, 0, 0);
    struct { long mtype; char mtext[8]; } msg = { 1, "hello" };
    syscall(SYS_ipc, MSGSND, msqid, 6, IPC_NOWAIT, &msg, 0);
    syscall(SYS_ipc, MSGRCV | (1 << 16), msqid, 8, IPC_NOWAIT, &msg, 0);
    syscall(SYS_ipc, MSGCTL, msqid, IPC_RMID, 0, 0, 0);
    int shmid = syscall(SYS_ipc, SHMGET, IPC_PRIVATE, 4096, 0600, 0, 0);
    unsigned int raddr = 0;
    syscall(SYS_ipc, SHMAT, shmid, SHM_RDONLY, &raddr, 0, 0);
    syscall(SYS_ipc, SHMDT, 0, 0, 0, (void *)(unsigned long)raddr, 0);
    syscall(SYS_ipc, SHMCTL, shmid, IPC_RMID, 0, 0, 0);
    syscall(SYS_ipc, 99, 1, 2, 3, 0, 0);                                 /* no such subcall */
    /* glibc's own calls (direct semget/semctl... syscalls on i386 nowadays) */
    int id = semget(IPC_PRIVATE, 1, 0600);
    semctl(id, 0, IPC_RMID);
}

int main(void)
{
    int sv[2];
    unsigned int pargs[4] = { AF_UNIX, SOCK_DGRAM, 0, W(sv) };
    syscall(SYS_socketcall, SYS_SOCKETPAIR, pargs);
    unsigned int kargs[3] = { AF_INET, SOCK_DGRAM, IPPROTO_UDP };
    int s = syscall(SYS_socketcall, SYS_SOCKET, kargs);
    unsigned int shargs[2] = { s, SHUT_RDWR };
    syscall(SYS_socketcall, SYS_SHUTDOWN, shargs);
    close(s);
    socket_calls(sv[0], sv[1]);
    ipc_calls();
    pid_t child = fork();
    if (child == 0) {
        unsigned int cargs[4] = { sv[0], W("kid"), 3, 0 };
        syscall(SYS_socketcall, SYS_SEND, cargs);
        int semid = syscall(SYS_ipc, SEMGET, IPC_PRIVATE, 1, 0600, 0, 0);
        syscall(SYS_ipc, SEMCTL, semid, 0, IPC_RMID, 0, 0);
        _exit(0);
    }
    waitpid(child, 0, 0);
    return 0;
}
#endif
