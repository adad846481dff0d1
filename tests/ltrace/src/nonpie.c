/* A non-PIE program (built with -no-pie) that takes the addresses of malloc and free (issue 16).
 * Non-PIC code takes a library function's address as the program's own PLT stub, so that stub becomes
 * the function's one canonical address: the dynamic linker points libc's own GOT slots for malloc and
 * free there too, and libc's internal calls (strdup, fopen, qsort's buffer, stdio's) run through the
 * program's PLT.  ltrace shows each such call once, as the program's; so must pyltrace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *(*volatile alloc)(size_t);
static void (*volatile release)(void *);

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(void)
{
	int v[3] = {3, 1, 2};
	alloc = malloc; /* in code built with -fno-pie: an absolute address, the program's PLT stub */
	release = free;
	char *p = malloc(10);
	char *q = alloc(20);
	char *d = strdup("hello");
	free(p);
	release(q);
	qsort(v, 3, sizeof v[0], cmp);
	FILE *f = fopen("/dev/null", "r");
	if (f)
		fclose(f);
	free(d);
	printf("%d %d %d\n", v[0], v[1], v[2]);
	return 0;
}
