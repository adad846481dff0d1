/* pyltrace test program for ltrace.conf's prototype language (issue 16): each construct of
 * ltrace 0.7.3's language gets a function in libprotos.so (built with -DLIBRARY), called from main
 * through the PLT, and tests/ltrace/protos.conf describes them. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct node { int v; struct node *next; };
struct dnode { int v; struct dnode *next; struct dnode *prev; };
struct mixed { int a; int hidden; char c; const char *s; double d; };
struct counted { unsigned long n; int *items; };
struct named { char tag[6]; float f; };

#ifdef LIBRARY
int p_str(const char *a, const char *b, int n) { return (int)(strlen(a) + strlen(b)) + n; }
int p_fixed(const char *a, const char *b) { return a[0] + b[0]; }
int p_enum(int a, int b, long c, int d) { return a + b + (int)c + d; }
int p_ints(char c, short s, unsigned short us, int i, unsigned u, long l) { return c + s + us + i + (int)u + (int)l; }
long p_many(int a, int b, int c, int d, int e, int f, int g, long h) { return a + b + c + d + e + f + g + h; }
int p_lens(int a, int b, int c, int d, long e, char f) { return a + b + c + d + (int)e + f; }
int p_mixed(struct mixed *m) { return m ? m->a + m->c : -1; }
int p_list(struct node *n) { int s = 0; for (int k = 0; n && k < 10; n = n->next, k++) s += n->v; return s; }
int p_dlist(struct dnode *n) { return n ? n->v : 0; }
int p_array(const int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
int p_array3(const int *a) { return a[0]; }
int p_counted(struct counted *c) { return c ? (int)c->n : 0; }
unsigned p_bits(unsigned v, const unsigned char *bytes, unsigned long all) { return v + bytes[0] + (unsigned)all; }
int p_printf(const char *fmt, ...) {
	va_list ap; char buf[512];
	va_start(ap, fmt); int n = vsnprintf(buf, sizeof buf, fmt, ap); va_end(ap);
	return n;
}
int p_out(char *buf, int *v) { strcpy(buf, "filled in"); *v = 42; return 9; }
int p_retlen(char *buf) { memcpy(buf, "abcdefgh", 8); return 5; }
double p_float(float f, double d) { return f + d; }
float p_floatret(double d) { return (float)(d * 2); }
int p_named(struct named *n) { return n->tag[0]; }
int p_hidden(int a, int b, int c) { return a + b + c; }
int p_void(int a, int b) { return a + b; }
int p_nul(const char *s, int n) { return s ? n : -n; }
int p_bad(const char *s) { return s == 0; }
#else
int p_str(const char *a, const char *b, int n);
int p_fixed(const char *a, const char *b);
int p_enum(int a, int b, long c, int d);
int p_ints(char c, short s, unsigned short us, int i, unsigned u, long l);
long p_many(int a, int b, int c, int d, int e, int f, int g, long h);
int p_lens(int a, int b, int c, int d, long e, char f);
int p_mixed(struct mixed *m);
int p_list(struct node *n);
int p_dlist(struct dnode *n);
int p_array(const int *a, int n);
int p_array3(const int *a);
int p_counted(struct counted *c);
unsigned p_bits(unsigned v, const unsigned char *bytes, unsigned long all);
int p_printf(const char *fmt, ...);
int p_out(char *buf, int *v);
int p_retlen(char *buf);
double p_float(float f, double d);
float p_floatret(double d);
int p_named(struct named *n);
int p_hidden(int a, int b, int c);
int p_void(int a, int b);
int p_nul(const char *s, int n);
int p_bad(const char *s);

int main(void)
{
	int sum = 0;
	sum += p_str("hello, world: a string longer than ten", "tab\there\001\377\"q", 4);
	sum += p_fixed("abcdefghijklmnop", "xy");
	sum += p_enum(1, 3, -1, 7) + p_enum(9, -100, 2, 0) + p_enum(0, 2, 5, 1);
	sum += p_ints('A', -2, 65535, -7, 4000000000u, -1234567890123L) + p_ints('\n', 0, 0, 0, 0, 0);
	sum += (int)p_many(1, 2, 3, 4, 5, 6, 7, 80000);
	sum += p_lens(8, 0, 0755, 255, 123456, 'z') + p_lens(-1, 1, 0, -1, -20000, '\0');
	struct mixed m = { 5, 99, 'q', "inner", 2.5 };
	sum += p_mixed(&m) + p_mixed(0);
	struct node n3 = { 3, 0 }, n2 = { 2, &n3 }, n1 = { 1, &n2 };
	struct node loop = { 9, 0 }; loop.next = &loop;
	struct node l6 = { 6, 0 }, l5 = { 5, &l6 }, l4 = { 4, &l5 }, l3 = { 3, &l4 }, l2 = { 2, &l3 }, l1 = { 1, &l2 };
	sum += p_list(&n1) + p_list(&loop) + p_list(&l1) + p_list(0);
	struct dnode d3 = { 7, 0, 0 }, d2 = { 8, &d3, 0 }, d1 = { 9, &d2, 0 };
	d3.prev = &d2; d2.prev = &d1;
	sum += p_dlist(&d1);
	int arr[7] = { 10, -20, 30, 40, 50, 60, 70 };
	sum += p_array(arr, 3) + p_array(arr, 7) + p_array(arr, 0) + p_array3(arr);
	struct counted c = { 2, arr };
	sum += p_counted(&c);
	unsigned char bytes[8] = { 0x03, 0x01, 0, 0x80, 0, 0, 0, 0 };
	sum += (int)p_bits(0x123, bytes, 0xfffffffffffffffeUL) + (int)p_bits(0, bytes, ~0UL) + (int)p_bits(0x80000001u, bytes, 0);
	sum += p_printf("%d %s %c %x %o %u %5s|%.3s|%*d|%hhd %lld %f %e %p %%\n", -5, "str", 'c', 255, 8, 3000000000u,
			"width-string", "precision", 6, 42, 65, -1LL, 1.5, 0.25, (void *)0);
	sum += p_printf("%s and %.*s and %s\n", "first", 4, "starlimited", "after");
	sum += p_printf("%ld %hd %lu %zd %Lf %s\n", -9L, (short)-3, 7UL, (long)-2, 2.0L, (char *)0);
	sum += p_printf("no conversions\n");
	char buf[32] = "";
	int v = 0;
	sum += p_out(buf, &v);
	char buf2[16] = "";
	sum += p_retlen(buf2);
	sum += (int)p_float(1.5f, -0.125) + (int)p_floatret(3.25);
	struct named nm = { "tagit", 0.5f };
	sum += p_named(&nm);
	sum += p_hidden(1, 2, 3) + p_void(4, 5);
	sum += p_nul("", 0) + p_nul(0, 1) + p_nul("x", 2);
	sum += p_bad((const char *)8);
	printf("%d\n", sum);
	return 0;
}
#endif
