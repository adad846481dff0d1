/* pyltrace test program: bit vectors (sigset_t through ltrace.conf's bitvec(ulong)), enums (signum,
 * LC_ALL) and strings, all with the prototypes ltrace 0.7.3 installs in /etc/ltrace.conf. */
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	sigset_t s;
	setlocale(LC_ALL, "");
	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGUSR1);
	sigaddset(&s, SIGRTMIN + 3);
	sigprocmask(SIG_BLOCK, &s, NULL);
	sigismember(&s, SIGINT);
	sigfillset(&s);
	sigdelset(&s, SIGHUP);
	sigprocmask(SIG_SETMASK, &s, NULL);
	sigemptyset(&s);
	sigprocmask(SIG_SETMASK, &s, NULL);
	return (int)strlen(getenv("PATH") ? "path" : "none") - 4;
}
