/* pyltrace test program: printf-style formats through ltrace's "format" pack (issue 16).  Calls
 * p_printf from libprotos.so (protos.c) with widths, precisions, '*', length modifiers and flags, so
 * that each conversion's type and ltrace's quirks (a width or precision limits a %s; a '*' value limits
 * the next %s) are compared with ltrace 0.7.3. */
#include <stdio.h>
#include <wchar.h>

int p_printf(const char *fmt, ...);

int main(void)
{
	int n = 0;
	const char *longs = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ";
	n += p_printf("%5d|%-10s|%.0s|%10.3s|%05.2f\n", 42, "left", "gone", "truncated", 3.14159);
	n += p_printf("%*.*s|%.*s|%*d %s\n", 8, 3, "abcdef", -1, "negative", 3, 7, "after star");
	n += p_printf("%hhx %hd %lx %llx %jd %zu %td %qd\n", 0x1ff, (short)-5, 0xdeadbeefUL, 0x1234567890ULL,
		      (long long)-7, (size_t)99, (long)-3, (long long)12);
	n += p_printf("%c%c%c %e %g %a %A %E %G\n", 'x', '\n', 200, 1e10, 0.0001, 1.0, -2.5, 123.0, 1e-10);
	n += p_printf("%% %m %5%% %-#+ 'd %1$d\n", 5);
	n += p_printf("%s|%.3s|%40s\n", longs, "ab", longs);
	n += p_printf("%p %p %#x %#o %X %lu\n", (void *)0, (void *)0x1234, 255, 8, 0xabc, 4000000000UL);
	n += p_printf("%ls|%lc|%S\n", L"wide", (wint_t)'w', L"str");
	n += p_printf("%d %d %d %d %d %d %d %d %s\n", 1, 2, 3, 4, 5, 6, 7, 8, "on the stack");
	n += p_printf("%f %f %f %f %f %f %f %f %f %f %d\n", 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11);
	n += p_printf("unterminated %");
	n += p_printf("%5.5");
	printf("%d\n", n);
	return 0;
}
