/* add_key, request_key and keyctl's commands with valid and invalid arguments.  Keys go into
 * a fresh session keyring joined first, so nothing outside this process is touched.
 */
#define _GNU_SOURCE
#include <linux/keyctl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define BAD ((void *) 8)

static long kc(long cmd, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)
{
    return syscall(SYS_keyctl, cmd, a2, a3, a4, a5);
}

int main(void)
{
    long ring = kc(KEYCTL_JOIN_SESSION_KEYRING, (unsigned long) "pytrace-test", 0, 0, 0);
    long key = syscall(SYS_add_key, "user", "pytrace:key", "secret payload", 14, KEY_SPEC_SESSION_KEYRING);
    syscall(SYS_add_key, "user", "pytrace:bad", BAD, 4, KEY_SPEC_SESSION_KEYRING);
    syscall(SYS_add_key, "nosuchtype", "x", NULL, 0, -99);
    syscall(SYS_request_key, "user", "pytrace:none", NULL, KEY_SPEC_THREAD_KEYRING);
    syscall(SYS_request_key, "user", "pytrace:key", "callout", 0);
    kc(KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0, 0, 0);
    kc(KEYCTL_GET_KEYRING_ID, 12345, 1, 0, 0);
    kc(KEYCTL_UPDATE, key, (unsigned long) "new payload", 11, 0);
    char buf[64];
    memset(buf, 0, sizeof buf);
    kc(KEYCTL_DESCRIBE, key, (unsigned long) buf, sizeof buf, 0);
    kc(KEYCTL_READ, key, (unsigned long) buf, sizeof buf, 0);
    kc(KEYCTL_READ, key, (unsigned long) buf, 4, 0);
    kc(KEYCTL_READ, -99, (unsigned long) buf, sizeof buf, 0);
    kc(KEYCTL_GET_SECURITY, key, (unsigned long) buf, sizeof buf, 0);
    kc(KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING, (unsigned long) "user", (unsigned long) "pytrace:key", 0);
    kc(KEYCTL_SEARCH, ring, (unsigned long) "user", (unsigned long) "pytrace:none", KEY_SPEC_PROCESS_KEYRING);
    kc(KEYCTL_CHOWN, key, -1, -1, 0);
    kc(KEYCTL_CHOWN, 12345, 1000, 100, 0);
    kc(KEYCTL_SETPERM, key, 0x3f030010 /* KEY_POS_ALL|KEY_USR_VIEW|KEY_USR_READ|KEY_OTH_LINK: kernel-internal names */, 0, 0);
    kc(KEYCTL_SETPERM, 12345, 0xc0000000, 0, 0);
    kc(KEYCTL_LINK, key, KEY_SPEC_SESSION_KEYRING, 0, 0);
    kc(KEYCTL_UNLINK, key, 12345, 0, 0);
    kc(KEYCTL_INSTANTIATE, 12345, (unsigned long) "data", 4, KEY_SPEC_SESSION_KEYRING);
    struct iovec iov[2] = { { "ab", 2 }, { "cde", 3 } };
    kc(KEYCTL_INSTANTIATE_IOV, 12345, (unsigned long) iov, 2, 0);
    kc(KEYCTL_NEGATE, 12345, 60, KEY_SPEC_USER_KEYRING, 0);
    kc(KEYCTL_REJECT, 12345, 60, 127, KEY_SPEC_USER_SESSION_KEYRING);
    kc(KEYCTL_REJECT, 12345, 60, 9999, 0);
    kc(KEYCTL_SET_REQKEY_KEYRING, KEY_REQKEY_DEFL_NO_CHANGE, 0, 0, 0);
    kc(KEYCTL_SET_REQKEY_KEYRING, 99, 0, 0, 0);
    kc(KEYCTL_SET_TIMEOUT, 12345, 100, 0, 0);
    kc(KEYCTL_ASSUME_AUTHORITY, 0, 0, 0, 0);
    kc(KEYCTL_GET_PERSISTENT, -1, 12345, 0, 0);
    kc(KEYCTL_RESTRICT_KEYRING, 12345, (unsigned long) "asymmetric", (unsigned long) "builtin_trusted", 0);
    kc(KEYCTL_MOVE, key, KEY_SPEC_SESSION_KEYRING, 12345, KEYCTL_MOVE_EXCL | 2);
    kc(KEYCTL_INVALIDATE, 12345, 0, 0, 0);
    kc(KEYCTL_REVOKE, key, 0, 0, 0);
    kc(KEYCTL_CLEAR, ring, 0, 0, 0);
    kc(9999, 1, 2, 3, 4);
    puts("done");
    return 0;
}
