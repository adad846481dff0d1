/*
 * A tiny KVM guest for `-e kvm=vcpu` (strace's kvm.c prints the vCPU's exit reason after KVM_RUN).
 *
 * One VM, 4 KiB of guest memory at 0x1000 holding real-mode code that writes a byte to port 0x3f8
 * (KVM_EXIT_IO), halts (KVM_EXIT_HLT) and jumps back to the start.  vCPU 0 runs in the main
 * thread: OUT, HLT, then its kvm_run mapping is unmapped and KVM_RUN runs once more (the exit
 * reason can no longer be read: nothing is printed).  vCPU 1 is created by the main thread but run
 * by a second thread (strace finds it through /proc/PID/fd and /proc/PID/maps, not through the
 * KVM_CREATE_VCPU it saw), and vCPU 2 is created and run inside that thread.  The main thread
 * joins before doing anything else, so the order of the lines is fixed.  Last, a second VM with
 * an in-kernel irqchip, where HLT sleeps inside KVM_RUN: a third thread blocks there, the main
 * thread waits until /proc shows it asleep in ioctl, then interrupts it with SIGUSR1 (strace prints
 * KVM_RUN's argument at exit, after `<unfinished ...>`; the call fails with EINTR: no exit reason).
 * KVM_RUN on -1 and KVM_CREATE_VCPU on /dev/kvm itself check the other failing paths.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <linux/kvm.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static const unsigned char guest[] = {
    0xba, 0xf8, 0x03, /* mov $0x3f8, %dx */
    0xb0, 0x41,       /* mov $'A', %al */
    0xee,             /* out %al, (%dx) */
    0xf4,             /* hlt */
    0xeb, 0xf7,       /* jmp 0x1000 */
};

static int vm, mmap_size;

static int new_vcpu(int id)
{
    int vcpu = ioctl(vm, KVM_CREATE_VCPU, id);
    if (vcpu < 0) {
        perror("KVM_CREATE_VCPU");
        exit(1);
    }
    struct kvm_sregs sregs;
    if (ioctl(vcpu, KVM_GET_SREGS, &sregs) < 0) {
        perror("KVM_GET_SREGS");
        exit(1);
    }
    sregs.cs.base = 0;
    sregs.cs.selector = 0;
    ioctl(vcpu, KVM_SET_SREGS, &sregs);
    struct kvm_regs regs;
    memset(&regs, 0, sizeof(regs));
    regs.rip = 0x1000;
    regs.rflags = 0x2;
    ioctl(vcpu, KVM_SET_REGS, &regs);
    return vcpu;
}

static struct kvm_run *map_vcpu(int vcpu)
{
    struct kvm_run *run = mmap(NULL, mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
    if (run == MAP_FAILED) {
        perror("mmap vcpu");
        exit(1);
    }
    return run;
}

static void run_twice(int vcpu)
{
    map_vcpu(vcpu);
    ioctl(vcpu, KVM_RUN, 0); /* KVM_EXIT_IO */
    ioctl(vcpu, KVM_RUN, 0); /* KVM_EXIT_HLT */
}

static void *thread_main(void *arg)
{
    run_twice((int) (intptr_t) arg);
    run_twice(new_vcpu(2));
    return NULL;
}

static volatile int blocker_tid;

static void on_usr1(int sig)
{
    (void) sig;
}

static void *blocker_main(void *arg)
{
    int vcpu = (int) (intptr_t) arg;
    map_vcpu(vcpu);
    blocker_tid = (int) syscall(SYS_gettid);
    ioctl(vcpu, KVM_RUN, 0); /* sleeps in the guest's HLT until SIGUSR1: EINTR */
    return NULL;
}

/* True once the thread sleeps inside ioctl (not at a ptrace stop, not running). */
static int asleep_in_ioctl(int tid)
{
    char path[64], buf[256];
    snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char *ok = fgets(buf, sizeof(buf), f);
    fclose(f);
    char *state = ok ? strrchr(buf, ')') : NULL;
    if (!state || state[2] != 'S')
        return 0;
    snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
    f = fopen(path, "r");
    if (!f)
        return 0;
    ok = fgets(buf, sizeof(buf), f);
    fclose(f);
    return ok && atoi(buf) == SYS_ioctl && strchr(buf, ' ');
}

static void blocking_run(int kvm)
{
    int vm2 = ioctl(kvm, KVM_CREATE_VM, 0);
    if (vm2 < 0 || ioctl(vm2, KVM_CREATE_IRQCHIP, 0) < 0) {
        perror("KVM_CREATE_IRQCHIP");
        exit(1);
    }
    unsigned char *mem = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    mem[0] = 0xf4; /* hlt, with interrupts off: sleeps in the kernel */
    struct kvm_userspace_memory_region region = {
        .slot = 0, .guest_phys_addr = 0x1000, .memory_size = 0x1000, .userspace_addr = (uintptr_t) mem,
    };
    ioctl(vm2, KVM_SET_USER_MEMORY_REGION, &region);
    int saved = vm;
    vm = vm2;
    int vcpu = new_vcpu(3);
    vm = saved;
    signal(SIGUSR1, on_usr1);
    pthread_t thread;
    pthread_create(&thread, NULL, blocker_main, (void *) (intptr_t) vcpu);
    while (!blocker_tid || !asleep_in_ioctl(blocker_tid))
        usleep(1000);
    syscall(SYS_tgkill, getpid(), blocker_tid, SIGUSR1);
    pthread_join(thread, NULL);
}

int main(void)
{
    int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
    if (kvm < 0) {
        perror("/dev/kvm");
        return 1;
    }
    vm = ioctl(kvm, KVM_CREATE_VM, 0);
    if (vm < 0) {
        perror("KVM_CREATE_VM");
        return 1;
    }
    unsigned char *mem = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    memcpy(mem, guest, sizeof(guest));
    struct kvm_userspace_memory_region region = {
        .slot = 0, .guest_phys_addr = 0x1000, .memory_size = 0x1000, .userspace_addr = (uintptr_t) mem,
    };
    ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region);
    mmap_size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);

    ioctl(-1, KVM_RUN, 0);
    ioctl(kvm, KVM_CREATE_VCPU, 7); /* not a VM: fails */

    int vcpu0 = new_vcpu(0);
    struct kvm_run *run = map_vcpu(vcpu0);
    ioctl(vcpu0, KVM_RUN, 0); /* KVM_EXIT_IO */
    ioctl(vcpu0, KVM_RUN, 0); /* KVM_EXIT_HLT */
    munmap(run, mmap_size);
    ioctl(vcpu0, KVM_RUN, 0); /* runs, but the exit reason is not readable any more */

    int vcpu1 = new_vcpu(1);
    pthread_t thread;
    pthread_create(&thread, NULL, thread_main, (void *) (intptr_t) vcpu1);
    pthread_join(thread, NULL);

    blocking_run(kvm);
    return 0;
}
