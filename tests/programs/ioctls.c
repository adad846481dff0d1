/* ioctls that fail with ENOTTY, FIONREAD on a pipe, and an unknown request. */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

int main(void)
{
    struct termios tio;
    struct winsize ws;
    int p[2], avail = 0, dummy = 0;

    int fd = open("/dev/null", O_RDWR);
    ioctl(fd, TCGETS, &tio);                 /* ENOTTY */
    ioctl(fd, TIOCGWINSZ, &ws);              /* ENOTTY */
    pipe(p);
    write(p[1], "seven!\n", 7);
    ioctl(p[0], FIONREAD, &avail);
    ioctl(p[0], TIOCGWINSZ, &ws);            /* ENOTTY */
    ioctl(p[0], _IOR(0x99, 0x1, int), &dummy);   /* unknown request */
    ioctl(p[0], _IO(0xfe, 0x42), 0);         /* unknown request, no argument (strace names every 'Z' one: ZFS) */
    ioctl(99, FIONREAD, &avail);             /* EBADF */
    ioctl(fd, FIOCLEX);
    close(fd);
    return 0;
}
