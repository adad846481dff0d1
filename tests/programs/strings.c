/* write()s whose buffers exercise strace's string quoting and -s truncation. */
#include <unistd.h>

/* Length from the literal itself, so an edit can never desynchronise it. */
#define PUT(lit) write(1, lit, sizeof(lit) - 1)

int main(void)
{
    static const char nonprint[] = { 0, 1, 2, 31, 127, (char)128, (char)255, '\n' };
    static const char digits_after_nul[] = { 'a', 0, '1', '2', 0, 'x', 7, '8', '\n' };
    const void *volatile bad = (const void *)1;   /* volatile: keeps gcc from diagnosing it */

    PUT("hello\n");
    PUT("");
    PUT("tab\there\r\n\"quoted\" \\back\\ \a\b\f\v\033[0m\n");
    write(1, nonprint, sizeof nonprint);
    write(1, digits_after_nul, sizeof digits_after_nul);
    PUT("caf\xc3\xa9 \xe2\x82\xac utf-8\n");
    PUT("0123456789abcdefghijklmnopqrstu");             /* 31 bytes */
    PUT("0123456789abcdefghijklmnopqrstuv");            /* exactly 32 */
    PUT("0123456789abcdefghijklmnopqrstuvw");           /* 33 bytes */
    PUT("The quick brown fox jumps over the lazy dog; "
        "pack my box with five dozen liquor jugs.\n");  /* long */
    PUT("percent %s %d and brace {} [] and #comment\n");
    write(1, bad, 5);                                   /* EFAULT: address printed */
    write(-1, "x", 1);                                  /* EBADF */
    return 0;
}
