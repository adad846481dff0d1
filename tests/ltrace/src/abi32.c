/* pyltrace test program for i386 tracees (issue 16: the i386 calling convention), built with -m32.
 * Every argument is on the stack: ints, a char and a short in 4-byte slots, long long and double in
 * 8 bytes, structs by value copied whole (one with a double at offset 4, ILP32's alignment), struct
 * results through the hidden pointer, float/double results in st(0), strings, pointers, and a
 * variadic printf-style call.  The functions live in libabi32.so (-DLIBRARY) so that ltrace sees
 * them through the program's PLT. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct pt { int a; short b; char c; };     /* 8 bytes */
struct mix { long a; double d; int c; };   /* 16 bytes in ILP32: d at offset 4 */

#ifdef LIBRARY
int i_ints(int a, char c, short s, unsigned u) { return a + c + s + (int)u; }
long i_long(long a, unsigned long b) { return a - (long)b; }
char i_char(char c) { return (char)(c + 1); }
long long i_ll(long long x, int k) { return x * k; }
char *i_str(const char *s, char *out) { strcpy(out, s); out[0] = 'J'; return out; }
void *i_ptr(void *p, int n) { return (char *)p + n; }
struct pt i_struct(struct pt p, int k) { p.a += k; p.b = (short)(p.b * 2); p.c = (char)(p.c + 1); return p; }
struct mix i_mix(int k, struct mix m) { m.a -= k; m.d *= 2; m.c += k; return m; }
float i_float(float f, double d) { return (float)(f * d); }
double i_double(double a, int i, float f) { return a + i + f; }
int i_vfmt(const char *fmt, ...) { va_list ap; char buf[256]; va_start(ap, fmt); int n = vsnprintf(buf, sizeof buf, fmt, ap); va_end(ap); return n; }
#else
int i_ints(int a, char c, short s, unsigned u);
long i_long(long a, unsigned long b);
char i_char(char c);
long long i_ll(long long x, int k);
char *i_str(const char *s, char *out);
void *i_ptr(void *p, int n);
struct pt i_struct(struct pt p, int k);
struct mix i_mix(int k, struct mix m);
float i_float(float f, double d);
double i_double(double a, int i, float f);
int i_vfmt(const char *fmt, ...);

int main(void)
{
	char out[32];
	long sum = 0;
	sum += i_ints(-7, 'A', -300, 4000000000u);
	sum += i_long(-5, 70000);
	sum += i_char('x');
	sum += (long)(i_ll(0x100000002LL, 3) >> 32);
	sum += (long)strlen(i_str("hello", out));
	sum += i_ptr(out, 3) == out + 3;
	struct pt p = i_struct((struct pt){ 10, -20, 'q' }, 5);
	struct mix m = i_mix(2, (struct mix){ 100, 1.5, 7 });
	sum += p.a + p.b + p.c + m.a + (long)m.d + m.c;
	sum += (long)i_float(2.5f, 4.0);
	sum += (long)i_double(0.25, 3, -1.5f);
	sum += i_vfmt("%d %s %f %c %u %x %5.2f|%ld\n", -1, "str", 2.5, 'z', 7u, 255u, -0.125, 123456L);
	printf("%s %ld %d\n", "sum", sum, 3);
	return 0;
}
#endif
