/* ioctl requests strace 6.1 prints as structures beyond ioctl_structs.c: EVIOCSFF's struct
 * ff_effect (evdev_mpers.c) and KVM's struct kvm_cpuid2 (kvm.c).
 *
 * EVIOCSFF is printed at entry, so it is issued on -1 (EBADF) with one effect of each union
 * member strace decodes (constant, ramp, periodic, rumble), a condition effect (no union member)
 * and an unknown type, plus NULL and an unreadable pointer.  KVM: KVM_GET_SUPPORTED_CPUID and
 * KVM_GET_EMULATED_CPUID on /dev/kvm with room for 256 entries (printed at exit, the host's
 * answer) and with room for 1 (E2BIG: the address), then KVM_SET_CPUID2 on a real vCPU with two
 * of the supported entries, and on -1 with unusual flags, no entries, an array running into an
 * unmapped page and NULL.  The process is pinned to CPU 0 so the host's answer is the same
 * under both tracers.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/input.h>
#include <linux/kvm.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static void ff_requests(void)
{
    struct ff_effect e;

    memset(&e, 0, sizeof(e));
    e.type = FF_CONSTANT;
    e.id = -1;
    e.direction = 0x4000;
    e.trigger.button = 3;
    e.trigger.interval = 100;
    e.replay.length = 500;
    e.replay.delay = 10;
    e.u.constant.level = -1234;
    e.u.constant.envelope.attack_length = 1;
    e.u.constant.envelope.attack_level = 2;
    e.u.constant.envelope.fade_length = 3;
    e.u.constant.envelope.fade_level = 0xabcd;
    ioctl(-1, EVIOCSFF, &e);

    memset(&e.u, 0, sizeof(e.u));
    e.type = FF_RAMP;
    e.id = 7;
    e.u.ramp.start_level = -32768;
    e.u.ramp.end_level = 32767;
    e.u.ramp.envelope.fade_level = 0;
    ioctl(-1, EVIOCSFF, &e);

    memset(&e.u, 0, sizeof(e.u));
    e.type = FF_PERIODIC;
    e.u.periodic.waveform = FF_SINE;
    e.u.periodic.period = 20;
    e.u.periodic.magnitude = -5;
    e.u.periodic.offset = 6;
    e.u.periodic.phase = 65535;
    e.u.periodic.envelope.attack_level = 9;
    e.u.periodic.custom_len = 2;
    e.u.periodic.custom_data = (int16_t *) (uintptr_t) 0xdeadbeef;
    ioctl(-1, EVIOCSFF, &e);
    e.u.periodic.custom_data = NULL;
    ioctl(-1, EVIOCSFF, &e);

    memset(&e.u, 0, sizeof(e.u));
    e.type = FF_RUMBLE;
    e.u.rumble.strong_magnitude = 0xffff;
    e.u.rumble.weak_magnitude = 1;
    ioctl(-1, EVIOCSFF, &e);

    e.type = FF_SPRING;
    ioctl(-1, EVIOCSFF, &e);
    e.type = 0x7f;
    ioctl(-1, EVIOCSFF, &e);

    ioctl(-1, EVIOCSFF, NULL);
    ioctl(-1, EVIOCSFF, (void *) 1);
}

static struct kvm_cpuid2 *cpuid_alloc(unsigned int nent)
{
    struct kvm_cpuid2 *c = calloc(1, sizeof(*c) + nent * sizeof(struct kvm_cpuid_entry2));
    if (!c)
        exit(1);
    c->nent = nent;
    return c;
}

static void kvm_requests(void)
{
    /* CPUID leaves 0x1, 0xb and 0x1f carry the APIC id of the CPU the call ran on: pin it. */
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    sched_setaffinity(0, sizeof(one), &one);
    int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
    if (kvm < 0) {
        perror("/dev/kvm");
        exit(2);
    }
    struct kvm_cpuid2 *supported = cpuid_alloc(256);
    if (ioctl(kvm, KVM_GET_SUPPORTED_CPUID, supported) < 0) {
        perror("KVM_GET_SUPPORTED_CPUID");
        exit(3);
    }
    struct kvm_cpuid2 *emulated = cpuid_alloc(256);
    ioctl(kvm, KVM_GET_EMULATED_CPUID, emulated);
    struct kvm_cpuid2 *small = cpuid_alloc(1);
    ioctl(kvm, KVM_GET_SUPPORTED_CPUID, small);
    small->nent = 1;
    ioctl(kvm, KVM_GET_EMULATED_CPUID, small);

    int vm = ioctl(kvm, KVM_CREATE_VM, 0);
    int vcpu = vm < 0 ? -1 : ioctl(vm, KVM_CREATE_VCPU, 0);
    struct kvm_cpuid2 *two = cpuid_alloc(2);
    memcpy(two->entries, supported->entries, 2 * sizeof(struct kvm_cpuid_entry2));
    ioctl(vcpu, KVM_SET_CPUID2, two);

    two->entries[0].flags = KVM_CPUID_FLAG_SIGNIFCANT_INDEX | KVM_CPUID_FLAG_STATE_READ_NEXT | 0x100;
    two->entries[1].flags = 0x80000000;
    ioctl(-1, KVM_SET_CPUID2, two);
    two->nent = 0;
    ioctl(-1, KVM_SET_CPUID2, two);
    ioctl(-1, KVM_SET_CPUID2, NULL);

    /* Two readable entries, the third in an unmapped page. */
    size_t page = (size_t) sysconf(_SC_PAGESIZE);
    char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        exit(4);
    munmap(map + page, page);
    size_t size = sizeof(struct kvm_cpuid2) + 2 * sizeof(struct kvm_cpuid_entry2);
    struct kvm_cpuid2 *edge = (struct kvm_cpuid2 *) (map + page - size);
    memcpy(edge, supported, size);
    edge->nent = 5;
    ioctl(-1, KVM_SET_CPUID2, edge);
    /* The header readable, the first entry not. */
    edge = (struct kvm_cpuid2 *) (map + page - sizeof(struct kvm_cpuid2));
    edge->nent = 1;
    ioctl(-1, KVM_SET_CPUID2, edge);
}

int main(void)
{
    ff_requests();
    kvm_requests();
    return 0;
}
