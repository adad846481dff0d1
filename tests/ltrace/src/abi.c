/* pyltrace test program for the x86-64 System V calling convention (issue 16): structs of each
 * eightbyte class passed and returned by value, floats and doubles in and past the xmm registers,
 * integers past the six registers, and a variadic printf-style function with doubles.  The
 * functions live in libabi.so (-DLIBRARY) so that ltrace sees them through the PLT. */
#include <stdarg.h>
#include <stdio.h>

struct small { int a; int b; };              /* INTEGER */
struct pair { long a; long b; };             /* INTEGER, INTEGER */
struct mixed { double d; int i; };           /* SSE, INTEGER */
struct fpair { float x; float y; };          /* SSE */
struct dd { double a; double b; };           /* SSE, SSE */
struct big { long a; long b; long c; };      /* MEMORY */
struct chars { char c[3]; short s; };        /* INTEGER (a packed eightbyte) */

#ifdef LIBRARY
struct small a_small(struct small s) { s.a += 1; s.b *= 2; return s; }
struct pair a_pair(struct pair p, int k) { p.a += k; p.b -= k; return p; }
struct mixed a_mixed(struct mixed m) { m.d *= 2; m.i += 1; return m; }
struct fpair a_fpair(struct fpair f) { f.x += f.y; return f; }
struct dd a_dd(struct dd d) { d.a -= d.b; return d; }
struct big a_big(struct big b, int k) { b.a += k; b.c -= k; return b; }
struct chars a_chars(struct chars c) { c.s += c.c[0]; return c; }
double a_doubles(double a, double b, double c, double d, double e, double f, double g, double h, double i, double j)
{ return a + b + c + d + e + f + g + h + i + j; }
float a_floats(int i, float f, long l, double d, float g) { return (float)(i + f + l + d + g); }
long a_ints(long a, long b, long c, long d, long e, long f, long g, long h) { return a + b + c + d + e + f + g + h; }
long a_late(long a, long b, long c, long d, long e, struct pair p) { return a + b + c + d + e + p.a + p.b; }
int a_vfmt(const char *fmt, ...) { va_list ap; char buf[256]; va_start(ap, fmt); int n = vsnprintf(buf, sizeof buf, fmt, ap); va_end(ap); return n; }
#else
struct small a_small(struct small s);
struct pair a_pair(struct pair p, int k);
struct mixed a_mixed(struct mixed m);
struct fpair a_fpair(struct fpair f);
struct dd a_dd(struct dd d);
struct big a_big(struct big b, int k);
struct chars a_chars(struct chars c);
double a_doubles(double a, double b, double c, double d, double e, double f, double g, double h, double i, double j);
float a_floats(int i, float f, long l, double d, float g);
long a_ints(long a, long b, long c, long d, long e, long f, long g, long h);
long a_late(long a, long b, long c, long d, long e, struct pair p);
int a_vfmt(const char *fmt, ...);

int main(void)
{
	long sum = 0;
	struct small s = a_small((struct small){ 3, -4 });
	struct pair p = a_pair((struct pair){ 100, -200 }, 5);
	struct mixed m = a_mixed((struct mixed){ 1.25, 7 });
	struct fpair f = a_fpair((struct fpair){ 0.5f, 2.0f });
	struct dd d = a_dd((struct dd){ 10.0, 0.5 });
	struct big b = a_big((struct big){ 1, 2, 3 }, 10);
	struct chars c = a_chars((struct chars){ { 'x', 'y', 'z' }, 5 });
	sum += s.a + p.a + m.i + (long)f.x + (long)d.a + b.a + c.s;
	sum += (long)a_doubles(1, 2, 3, 4, 5, 6, 7, 8, 9.5, 10.25);
	sum += (long)a_floats(1, 2.5f, 3, 4.75, -1.5f);
	sum += a_ints(1, 2, 3, 4, 5, 6, 70000, -8);
	sum += a_late(1, 2, 3, 4, 5, (struct pair){ 60, 70 });
	sum += a_vfmt("%d %f %s %f %f %f %f %f %f %f %f %ld\n", 1, 0.5, "s", 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.5, 99L);
	printf("%ld\n", sum);
	return 0;
}
#endif
