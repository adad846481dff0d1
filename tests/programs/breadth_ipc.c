/* System V IPC (shm, sem, msg) and POSIX message queues through syscall(2), with valid and
 * invalid arguments.  IPC ids change from run to run; the tests renumber them.
 * argv[1] names the message queue ("/NAME"), so parallel runs never share one.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mqueue.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define BAD ((void *) 8)

int main(int argc, char **argv)
{
    const char *qname = argc > 1 ? argv[1] : "/pytrace-breadth";

    getpid();  /* names the tracee's pid for the tests (shm_cpid, shm_lpid) */

    /* shared memory */
    int shmid = syscall(SYS_shmget, IPC_PRIVATE, 4096, IPC_CREAT | IPC_EXCL | 0600);
    int huge = syscall(SYS_shmget, IPC_PRIVATE, 4096, SHM_HUGETLB | SHM_NORESERVE | 0640);
    if (huge >= 0)
        syscall(SYS_shmctl, huge, IPC_RMID, NULL);
    syscall(SYS_shmget, 0x1234, 0, 0);
    void *at = (void *) syscall(SYS_shmat, shmid, NULL, SHM_RDONLY);
    syscall(SYS_shmat, -1, NULL, 0);
    syscall(SYS_shmat, shmid, BAD, SHM_RND | SHM_REMAP);
    struct shmid_ds sds;
    syscall(SYS_shmctl, shmid, IPC_STAT, &sds);
    syscall(SYS_shmctl, shmid, IPC_STAT, BAD);
    syscall(SYS_shmctl, shmid, IPC_SET, BAD);
    syscall(SYS_shmctl, shmid, 99, NULL);
    syscall(SYS_shmdt, at);
    syscall(SYS_shmdt, BAD);
    syscall(SYS_shmctl, shmid, IPC_RMID, NULL);

    /* semaphores */
    int semid = syscall(SYS_semget, IPC_PRIVATE, 2, IPC_CREAT | 0600);
    syscall(SYS_semget, 0x1234, 0, 0);
    syscall(SYS_semget, IPC_PRIVATE, -1, IPC_CREAT);
    struct sembuf ops[2] = { { 0, 1, SEM_UNDO }, { 1, 0, IPC_NOWAIT } };
    syscall(SYS_semop, semid, ops, 2);
    syscall(SYS_semop, semid, ops, 0);
    syscall(SYS_semop, semid, BAD, 1);
    struct timespec ts = { 0, 1000 };
    struct sembuf wait_op = { 1, -1, 0 };
    syscall(SYS_semtimedop, semid, &wait_op, 1, &ts);
    syscall(SYS_semtimedop, semid, ops, 1, NULL);
    syscall(SYS_semctl, semid, 0, GETVAL, 0);
    syscall(SYS_semctl, semid, 1, SETVAL, 5);
    unsigned short vals[2];
    syscall(SYS_semctl, semid, 0, GETALL, vals);
    syscall(SYS_semctl, semid, 0, IPC_STAT, BAD);
    syscall(SYS_semctl, semid, 0, 99, 0);
    syscall(SYS_semctl, semid, 0, IPC_RMID, 0);

    /* message queues */
    int msqid = syscall(SYS_msgget, IPC_PRIVATE, IPC_CREAT | 0600);
    syscall(SYS_msgget, 0x1234, 0);
    struct { long mtype; char mtext[16]; } msg = { 7, "payload" };
    syscall(SYS_msgsnd, msqid, &msg, 8, 0);
    syscall(SYS_msgsnd, msqid, BAD, 8, IPC_NOWAIT);
    syscall(SYS_msgsnd, msqid, &msg, 8, 0x10000);
    syscall(SYS_msgrcv, msqid, &msg, sizeof msg.mtext, 7, IPC_NOWAIT);
    syscall(SYS_msgrcv, msqid, &msg, sizeof msg.mtext, 0, IPC_NOWAIT | MSG_NOERROR);
    syscall(SYS_msgrcv, msqid, BAD, 8, 0, IPC_NOWAIT);
    struct msqid_ds mds;
    syscall(SYS_msgctl, msqid, IPC_STAT, BAD);
    syscall(SYS_msgctl, msqid, 99, &mds);
    syscall(SYS_msgctl, msqid, IPC_RMID, NULL);
    syscall(SYS_msgctl, msqid, IPC_RMID, NULL);

    /* POSIX message queues */
    syscall(SYS_mq_unlink, qname);
    struct mq_attr attr = { .mq_flags = 0, .mq_maxmsg = 4, .mq_msgsize = 32, .mq_curmsgs = 0 };
    int mq = syscall(SYS_mq_open, qname, O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
    syscall(SYS_mq_open, qname, O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
    syscall(SYS_mq_open, "/pytrace-breadth-nosuch", O_RDONLY, 0, NULL);
    syscall(SYS_mq_open, BAD, O_RDONLY, 0, NULL);
    syscall(SYS_mq_timedsend, mq, "hello", 5, 3, NULL);
    struct timespec past = { 0, 0 };
    syscall(SYS_mq_timedsend, mq, "again", 5, 1, &past);
    syscall(SYS_mq_timedsend, 99, "x", 1, 0, NULL);
    char buf[64];
    unsigned prio;
    syscall(SYS_mq_timedreceive, mq, buf, sizeof buf, &prio, NULL);
    syscall(SYS_mq_timedreceive, mq, buf, sizeof buf, NULL, &past);
    syscall(SYS_mq_timedreceive, mq, buf, 4, &prio, &past);
    syscall(SYS_mq_timedreceive, mq, buf, sizeof buf, &prio, &past);
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_SIGNAL;
    sev.sigev_signo = SIGUSR1;
    sev.sigev_value.sival_int = 5;
    syscall(SYS_mq_notify, mq, &sev);
    syscall(SYS_mq_notify, mq, NULL);
    syscall(SYS_mq_notify, 99, NULL);
    struct mq_attr old, nonblock = { .mq_flags = O_NONBLOCK };
    syscall(SYS_mq_getsetattr, mq, NULL, &old);
    syscall(SYS_mq_getsetattr, mq, &nonblock, &old);
    syscall(SYS_mq_getsetattr, mq, BAD, NULL);
    close(mq);
    syscall(SYS_mq_unlink, qname);
    syscall(SYS_mq_unlink, qname);
    return 0;
}
