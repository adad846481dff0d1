/* keyctl's structured commands: KEYCTL_DH_COMPUTE (struct keyctl_dh_params and keyctl_kdf_params),
 * KEYCTL_PKEY_QUERY/ENCRYPT/DECRYPT/SIGN/VERIFY (struct keyctl_pkey_params, the info string) and
 * KEYCTL_CAPABILITIES, with valid and invalid arguments.  Keys live in a fresh session keyring.
 */
#define _GNU_SOURCE
#include <linux/keyctl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BAD ((unsigned long) 8)

static long kc(long cmd, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)
{
    return syscall(SYS_keyctl, cmd, a2, a3, a4, a5);
}

static long add(const char *desc, const void *payload, size_t len)
{
    return syscall(SYS_add_key, "user", desc, payload, len, KEY_SPEC_SESSION_KEYRING);
}

int main(void)
{
    kc(KEYCTL_JOIN_SESSION_KEYRING, (unsigned long) "pytrace-more", 0, 0, 0);
    unsigned char caps[8];
    memset(caps, 0, sizeof caps);
    kc(KEYCTL_CAPABILITIES, (unsigned long) caps, sizeof caps, 0, 0);
    kc(KEYCTL_CAPABILITIES, (unsigned long) caps, 1, 0, 0);
    kc(KEYCTL_CAPABILITIES, 0, 0, 0, 0);
    kc(KEYCTL_CAPABILITIES, BAD, 4, 0, 0);

    /* Diffie-Hellman on "user" keys: 5^6 mod 23. */
    unsigned char prime[] = { 23 }, base[] = { 5 }, priv[] = { 6 };
    long kp = add("dh:prime", prime, 1), kb = add("dh:base", base, 1), kx = add("dh:private", priv, 1);
    struct keyctl_dh_params dh = { .private = kx, .prime = kp, .base = kb };
    char out[32];
    memset(out, 0, sizeof out);
    kc(KEYCTL_DH_COMPUTE, (unsigned long) &dh, (unsigned long) out, sizeof out, 0);
    kc(KEYCTL_DH_COMPUTE, (unsigned long) &dh, (unsigned long) out, 0, 0);
    struct keyctl_dh_params bad_dh = { .private = 12345, .prime = KEY_SPEC_SESSION_KEYRING, .base = -99 };
    kc(KEYCTL_DH_COMPUTE, (unsigned long) &bad_dh, (unsigned long) out, sizeof out, 0);
    kc(KEYCTL_DH_COMPUTE, 0, (unsigned long) out, sizeof out, BAD);
    kc(KEYCTL_DH_COMPUTE, BAD, BAD, 16, 0);
    struct keyctl_kdf_params kdf = { .hashname = "sha256", .otherinfo = "other info", .otherinfolen = 10 };
    kc(KEYCTL_DH_COMPUTE, (unsigned long) &dh, (unsigned long) out, sizeof out, (unsigned long) &kdf);
    struct keyctl_kdf_params kdf0 = { .hashname = "nosuchhash", .otherinfo = (char *) BAD, .otherinfolen = 0 };
    kdf0.__spare[0] = 1;
    kdf0.__spare[7] = 0xdead;
    kc(KEYCTL_DH_COMPUTE, (unsigned long) &dh, (unsigned long) out, sizeof out, (unsigned long) &kdf0);

    /* Public-key operations on a key that is not asymmetric: they all fail. */
    struct keyctl_pkey_query q;
    memset(&q, 0, sizeof q);
    kc(KEYCTL_PKEY_QUERY, kx, 0, (unsigned long) "enc=pkcs1", (unsigned long) &q);
    kc(KEYCTL_PKEY_QUERY, 12345, 7, 0, BAD);
    struct keyctl_pkey_params pp = { .key_id = kx, .in_len = 4, .out_len = 16 };
    kc(KEYCTL_PKEY_ENCRYPT, (unsigned long) &pp, (unsigned long) "enc=raw", (unsigned long) "data",
       (unsigned long) out);
    kc(KEYCTL_PKEY_DECRYPT, (unsigned long) &pp, (unsigned long) "enc=raw hash=sha1", (unsigned long) "data",
       (unsigned long) out);
    pp.__spare[2] = 3;
    kc(KEYCTL_PKEY_SIGN, (unsigned long) &pp, 0, BAD, (unsigned long) out);
    kc(KEYCTL_PKEY_SIGN, 0, (unsigned long) "x", BAD, (unsigned long) out);
    struct keyctl_pkey_params vp = { .key_id = KEY_SPEC_USER_KEYRING, .in_len = 3, .in2_len = 5 };
    kc(KEYCTL_PKEY_VERIFY, (unsigned long) &vp, (unsigned long) "enc=pkcs1", (unsigned long) "abc",
       (unsigned long) "sig12");
    kc(KEYCTL_PKEY_VERIFY, BAD, (unsigned long) "", (unsigned long) "abc", (unsigned long) "sig12");
    puts("done");
    return 0;
}
