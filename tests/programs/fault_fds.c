/* Writes where its descriptors 0, 1 and 2 lead to FILE, one line each ("0 pipe", "1 /dev/null",
 * "2 closed"...; pipe and socket inode numbers dropped), for tests/faults: what a tracer started with
 * a standard descriptor closed hands on to the command.
 *
 *   fault_fds FILE
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    /* Inspect first: opening FILE would take the lowest closed descriptor. */
    char targets[3][256];
    for (int fd = 0; fd < 3; fd++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(path, targets[fd], sizeof targets[fd] - 1);
        if (n < 0) {
            strcpy(targets[fd], "closed");
            continue;
        }
        targets[fd][n] = 0;
        char *bracket = strchr(targets[fd], ':');
        if (bracket && (strncmp(targets[fd], "pipe:", 5) == 0 || strncmp(targets[fd], "socket:", 7) == 0))
            *bracket = 0;
        int flags = fcntl(fd, F_GETFL);
        if ((flags & O_ACCMODE) == O_RDONLY)
            strcat(targets[fd], " r");
        else if ((flags & O_ACCMODE) == O_WRONLY)
            strcat(targets[fd], " w");
        else
            strcat(targets[fd], " rw");
    }
    FILE *out = fopen(argv[1], "w");
    if (!out)
        return 1;
    for (int fd = 0; fd < 3; fd++)
        fprintf(out, "%d %s\n", fd, targets[fd]);
    fclose(out);
    return 0;
}
