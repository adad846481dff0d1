/* Blocks in read(0, &c, 1) until the test writes a byte, then reports it and exits 3.
 * Usage: blocked_read [FILE]   ("got C\n" goes to FILE if given, else to stdout)
 *
 * tests/faults/test_output_errors.py breaks the tracer's output while this waits (a full disk,
 * a hung-up terminal, a closed pipe) and checks that the trace of what follows fails the way
 * strace's does while this program still runs to its end. */
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    char c, msg[] = "got ?\n";
    int out = 1;

    if (read(0, &c, 1) != 1)
        return 1;
    msg[4] = c;
    if (argc > 1) {
        out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0)
            return 2;
    }
    write(out, msg, sizeof msg - 1);
    return 3;
}
