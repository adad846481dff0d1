/* ioctl requests whose argument strace 6.1 prints as a structure: loop_info, loop_info64 and
 * loop_config (loop.c), fsxattr, inode flags and fiemap (fs_x_ioctl.c, fs_f_ioctl.c), blkpg and
 * blk_user_trace_setup (block.c), perf_event_query_bpf and perf_event_attr (perf_ioctl.c), and
 * the KVM requests (kvm.c).
 *
 * Success paths where the machine allows them: a loop device bound to a file in the current
 * directory (LOOP_CTL_GET_FREE, LOOP_CONFIGURE with LO_FLAGS_AUTOCLEAR, so it detaches on close),
 * the fs requests on a regular file in the current directory, and a KVM VM with one vCPU that
 * runs a single HLT.  Every request is also issued on -1 (EBADF), where its argument is printed
 * from memory at entry or as the address at exit, with unusual values (an encryption type,
 * unknown flag bits, names without a NUL).  Prints "loop=N" to stderr (or "loop=none") so the
 * test knows which device was used.
 *
 * With the argument "evdev" it issues only evdev (type 'E') requests on -1 with buffers filled
 * in beforehand: the test traces that under -e inject=ioctl:retval=8, so the calls "succeed"
 * without running and both tracers decode the prepared buffers as the kernel's answers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/blkpg.h>
#include <linux/blktrace_api.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/input.h>
#include <linux/kvm.h>
#include <linux/loop.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static void loop_failures(void)
{
    struct loop_info info;
    struct loop_info64 info64;
    struct loop_config config;

    memset(&info, 0, sizeof(info));
    info.lo_number = 3;
    info.lo_device = 0x0801;
    info.lo_inode = 1234;
    info.lo_rdevice = 0x0702;
    info.lo_offset = 0x200;
    info.lo_flags = LO_FLAGS_READ_ONLY | LO_FLAGS_AUTOCLEAR;
    strcpy(info.lo_name, "old-style");
    ioctl(-1, LOOP_SET_STATUS, &info);
    info.lo_encrypt_type = LO_CRYPT_XOR;
    info.lo_encrypt_key_size = 6;
    memcpy(info.lo_encrypt_key, "secret", 6);
    info.lo_init[1] = 0xabc;
    info.reserved[2] = 7;
    info.lo_flags = 0x40;
    memset(info.lo_name, 'A', sizeof(info.lo_name));
    ioctl(-1, LOOP_SET_STATUS, &info);
    info.lo_encrypt_type = 77;
    info.lo_encrypt_key_size = 100;
    ioctl(-1, LOOP_SET_STATUS, &info);
    ioctl(-1, LOOP_SET_STATUS, NULL);
    ioctl(-1, LOOP_SET_STATUS, (void *) 8);
    ioctl(-1, LOOP_GET_STATUS, &info);

    memset(&info64, 0, sizeof(info64));
    info64.lo_device = 0x0803;
    info64.lo_inode = 99;
    info64.lo_offset = 0x1000;
    info64.lo_sizelimit = 1 << 20;
    info64.lo_number = 5;
    info64.lo_flags = LO_FLAGS_PARTSCAN | LO_FLAGS_DIRECT_IO;
    strcpy((char *) info64.lo_file_name, "/tmp/backing\tfile");
    ioctl(-1, LOOP_SET_STATUS64, &info64);
    info64.lo_encrypt_type = LO_CRYPT_CRYPTOAPI;
    info64.lo_encrypt_key_size = 4;
    strcpy((char *) info64.lo_crypt_name, "aes");
    memcpy(info64.lo_encrypt_key, "k\0y\1", 4);
    info64.lo_init[0] = 1;
    ioctl(-1, LOOP_SET_STATUS64, &info64);
    ioctl(-1, LOOP_GET_STATUS64, &info64);
    ioctl(-1, LOOP_GET_STATUS64, NULL);

    memset(&config, 0, sizeof(config));
    config.fd = 0;
    config.block_size = 4096;
    config.info.lo_flags = LO_FLAGS_AUTOCLEAR;
    strcpy((char *) config.info.lo_file_name, "cfg");
    ioctl(-1, LOOP_CONFIGURE, &config);
    config.__reserved[3] = 0x55;
    config.fd = -1;
    ioctl(-1, LOOP_CONFIGURE, &config);
    ioctl(-1, LOOP_CONFIGURE, NULL);
}

static int loop_success(void)
{
    /* Concurrent runs (pytest -n) would race for the same free device and retry: the lock keeps
     * the trace identical from run to run.  flock is not an ioctl, so it is not in the trace. */
    int lock = open("/tmp/pytrace-ioctl-structs.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (lock >= 0)
        flock(lock, LOCK_EX);
    int ctl = open("/dev/loop-control", O_RDWR);
    if (ctl < 0)
        return -1;
    int backing = open("loop-backing.img", O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (backing < 0 || ftruncate(backing, 1 << 20) != 0)
        return -1;
    int n = -1, dev = -1;
    for (int tries = 0; tries < 20 && dev < 0; tries++) {
        n = ioctl(ctl, LOOP_CTL_GET_FREE);
        if (n < 0)
            break;
        char name[32];
        snprintf(name, sizeof(name), "/dev/loop%d", n);
        dev = open(name, O_RDWR);
        if (dev < 0)
            continue;
        struct loop_config config;
        memset(&config, 0, sizeof(config));
        config.fd = backing;
        config.block_size = 512;
        config.info.lo_flags = LO_FLAGS_AUTOCLEAR;
        strcpy((char *) config.info.lo_file_name, "loop-backing.img");
        if (ioctl(dev, LOOP_CONFIGURE, &config) != 0) {
            close(dev);
            dev = -1;
        }
    }
    close(ctl);
    if (dev < 0) {
        close(backing);
        return -1;
    }
    struct loop_info64 info64;
    struct loop_info info;
    if (ioctl(dev, LOOP_GET_STATUS64, &info64) == 0)
        ioctl(dev, LOOP_SET_STATUS64, &info64);
    if (ioctl(dev, LOOP_GET_STATUS, &info) == 0)
        ioctl(dev, LOOP_SET_STATUS, &info);

    /* block.c on a real block device: no partition 1 (ENXIO) */
    struct blkpg_partition part;
    struct blkpg_ioctl_arg blkpg;
    memset(&part, 0, sizeof(part));
    part.pno = 1;
    blkpg.op = BLKPG_DEL_PARTITION;
    blkpg.flags = 0;
    blkpg.datalen = sizeof(part);
    blkpg.data = &part;
    ioctl(dev, BLKPG, &blkpg);
    ioctl(dev, LOOP_CLR_FD);
    close(dev);
    close(backing);
    if (lock >= 0)
        close(lock);
    unlink("loop-backing.img");
    return n;
}

static void fs_requests(void)
{
    int fd = open("fs-file", O_RDWR | O_CREAT | O_TRUNC, 0600);
    char buf[8192];
    memset(buf, 'x', sizeof(buf));
    if (write(fd, buf, sizeof(buf)) < 0)
        exit(1);
    fsync(fd);

    struct fsxattr fsx;
    memset(&fsx, 0, sizeof(fsx));
    if (ioctl(fd, FS_IOC_FSGETXATTR, &fsx) == 0)
        ioctl(fd, FS_IOC_FSSETXATTR, &fsx);
    fsx.fsx_xflags = FS_XFLAG_APPEND | FS_XFLAG_NOATIME | 0x40000000;
    fsx.fsx_extsize = 4096;
    fsx.fsx_nextents = 3;
    fsx.fsx_projid = 0x2a;
    fsx.fsx_cowextsize = 8;
    ioctl(-1, FS_IOC_FSSETXATTR, &fsx);
    ioctl(-1, FS_IOC_FSGETXATTR, &fsx);
    ioctl(-1, FS_IOC_FSSETXATTR, NULL);

    unsigned int flags = 0;
    if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0)
        ioctl(fd, FS_IOC_SETFLAGS, &flags);
    flags = FS_NOATIME_FL | FS_INDEX_FL | 0x4000000;
    ioctl(-1, FS_IOC_SETFLAGS, &flags);
    ioctl(-1, FS_IOC32_SETFLAGS, &flags);
    ioctl(-1, FS_IOC_GETFLAGS, &flags);
    flags = 0;
    ioctl(-1, FS_IOC_SETFLAGS, &flags);

    union {
        struct fiemap fm;
        char space[sizeof(struct fiemap) + 4 * sizeof(struct fiemap_extent)];
    } u;
    memset(&u, 0, sizeof(u));
    u.fm.fm_start = 0;
    u.fm.fm_length = ~0ULL;
    u.fm.fm_flags = FIEMAP_FLAG_SYNC;
    u.fm.fm_extent_count = 4;
    ioctl(fd, FS_IOC_FIEMAP, &u.fm);
    u.fm.fm_flags = 0x10 | FIEMAP_FLAG_XATTR;
    ioctl(-1, FS_IOC_FIEMAP, &u.fm);
    close(fd);
    unlink("fs-file");
}

static void block_failures(void)
{
    struct blkpg_partition part;
    struct blkpg_ioctl_arg blkpg;
    memset(&part, 0, sizeof(part));
    part.start = 1 << 20;
    part.length = 2 << 20;
    part.pno = 2;
    strcpy(part.devname, "sdz2");
    strcpy(part.volname, "vol");
    blkpg.op = BLKPG_ADD_PARTITION;
    blkpg.flags = 1;
    blkpg.datalen = sizeof(part);
    blkpg.data = &part;
    ioctl(-1, BLKPG, &blkpg);
    blkpg.op = 9;
    blkpg.data = NULL;
    ioctl(-1, BLKPG, &blkpg);
    ioctl(-1, BLKPG, NULL);

    struct blk_user_trace_setup buts;
    memset(&buts, 0, sizeof(buts));
    buts.act_mask = 0xffff;
    buts.buf_size = 4096;
    buts.buf_nr = 4;
    buts.start_lba = 0;
    buts.end_lba = 100;
    buts.pid = 1;
    ioctl(-1, BLKTRACESETUP, &buts);
    ioctl(-1, BLKTRACESETUP, NULL);
}

static void perf_failures(void)
{
    struct {
        uint32_t ids_len, prog_cnt, ids[4];
    } q = { 4, 0, { 0 } };
    ioctl(-1, PERF_EVENT_IOC_QUERY_BPF, &q);
    ioctl(-1, PERF_EVENT_IOC_QUERY_BPF, NULL);

    struct perf_event_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.type = PERF_TYPE_SOFTWARE;
    attr.size = sizeof(attr);
    attr.config = PERF_COUNT_SW_CPU_CLOCK;
    attr.sample_period = 1000;
    attr.disabled = 1;
    ioctl(-1, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr);
    ioctl(-1, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, NULL);
}

static void kvm_requests(void)
{
    struct kvm_userspace_memory_region region = {
        .slot = 0, .flags = KVM_MEM_LOG_DIRTY_PAGES, .guest_phys_addr = 0x1000,
        .memory_size = 0x1000, .userspace_addr = 0,
    };
    struct kvm_regs regs;
    struct kvm_sregs sregs;
    memset(&regs, 0, sizeof(regs));
    memset(&sregs, 0, sizeof(sregs));
    ioctl(-1, KVM_SET_USER_MEMORY_REGION, &region);
    ioctl(-1, KVM_SET_REGS, &regs);
    ioctl(-1, KVM_GET_REGS, &regs);
    ioctl(-1, KVM_SET_SREGS, &sregs);
    ioctl(-1, KVM_GET_SREGS, &sregs);
    ioctl(-1, KVM_RUN, 0);
    ioctl(-1, KVM_CREATE_VM, 0);

    int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
    if (kvm < 0)
        return;
    int vm = ioctl(kvm, KVM_CREATE_VM, 0);
    if (vm < 0)
        return;
    unsigned char *mem = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    mem[0] = 0xf4; /* hlt */
    region.flags = 0;
    region.userspace_addr = (uintptr_t) mem;
    ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region);
    int vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
    if (vcpu < 0)
        return;
    int size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
    void *run = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
    if (ioctl(vcpu, KVM_GET_SREGS, &sregs) == 0) {
        sregs.cs.base = 0;
        sregs.cs.selector = 0;
        ioctl(vcpu, KVM_SET_SREGS, &sregs);
    }
    memset(&regs, 0, sizeof(regs));
    regs.rip = 0x1000;
    regs.rflags = 0x2;
    ioctl(vcpu, KVM_SET_REGS, &regs);
    ioctl(vcpu, KVM_RUN, 0);
    ioctl(vcpu, KVM_GET_REGS, &regs);
    munmap(run, size);
    close(vcpu);
    close(vm);
    close(kvm);
}

static void evdev_requests(void)
{
    unsigned long bits[12];
    memset(bits, 0, sizeof(bits));
    bits[0] = (1UL << EV_KEY) | (1UL << EV_ABS) | (1UL << EV_MSC) | (1UL << 29);
    ioctl(-1, EVIOCGBIT(0, sizeof(bits)), bits);
    bits[0] = (1UL << KEY_ESC) | (1UL << KEY_A) | (1UL << KEY_B) | (1UL << KEY_C) | (1UL << KEY_D);
    bits[1] = 1UL << (BTN_LEFT - 64 > 63 ? 0 : 1);
    ioctl(-1, EVIOCGBIT(EV_KEY, sizeof(bits)), bits);
    bits[0] = (1UL << ABS_X) | (1UL << ABS_Y) | (1UL << ABS_MT_SLOT) | (1UL << 0x3f);
    ioctl(-1, EVIOCGBIT(EV_ABS, sizeof(bits)), bits);
    bits[0] = (1UL << REL_X) | (1UL << REL_WHEEL);
    ioctl(-1, EVIOCGBIT(EV_REL, 8), bits);
    bits[0] = 1UL << LED_CAPSL;
    ioctl(-1, EVIOCGBIT(EV_LED, 8), bits);
    ioctl(-1, EVIOCGBIT(EV_FF, 16), bits);
    ioctl(-1, EVIOCGBIT(EV_PWR, 4), bits);
    ioctl(-1, EVIOCGBIT(0x1e, 8), bits);
    bits[0] = 1UL << INPUT_PROP_POINTER;
    ioctl(-1, EVIOCGPROP(8), bits);
    bits[0] = (1UL << KEY_LEFTSHIFT);
    ioctl(-1, EVIOCGKEY(8), bits);
    ioctl(-1, EVIOCGLED(8), bits);
    ioctl(-1, EVIOCGSND(8), bits);
    ioctl(-1, EVIOCGSW(8), bits);

    char name[16] = "Test Pad\0\0\0\0\0\0\0";
    ioctl(-1, EVIOCGNAME(sizeof(name)), name);
    ioctl(-1, EVIOCGPHYS(sizeof(name)), name);
    ioctl(-1, EVIOCGUNIQ(sizeof(name)), name);

    struct input_absinfo abs = { .value = 5, .minimum = -100, .maximum = 100, .fuzz = 1, .flat = 2,
                                 .resolution = 3 };
    ioctl(-1, EVIOCGABS(ABS_X), &abs);
    ioctl(-1, EVIOCSABS(ABS_Y), &abs);
    ioctl(-1, _IOC(_IOC_READ, 'E', 0x40 + ABS_Z, 20), &abs);
    ioctl(-1, _IOC(_IOC_READ, 'E', 0x40 + ABS_Z, 28), &abs);
    ioctl(-1, _IOC(_IOC_READ, 'E', 0x40 + ABS_Z, 16), &abs);

    struct input_id id = { .bustype = BUS_USB, .vendor = 0x46d, .product = 0xc52b, .version = 0x111 };
    ioctl(-1, EVIOCGID, &id);
    int version = EV_VERSION, effects = 16;
    ioctl(-1, EVIOCGVERSION, &version);
    ioctl(-1, EVIOCGEFFECTS, &effects);
    unsigned int rep[2] = { 250, 33 };
    ioctl(-1, EVIOCGREP, rep);
    ioctl(-1, EVIOCSREP, rep);
    unsigned int keycode[2] = { 0x1e, KEY_A };
    ioctl(-1, EVIOCGKEYCODE, keycode);
    keycode[1] = 0x2fe;
    ioctl(-1, EVIOCSKEYCODE, keycode);
    struct input_keymap_entry ike = { .flags = INPUT_KEYMAP_BY_INDEX, .len = 4, .index = 7, .keycode = KEY_ENTER };
    ike.scancode[0] = 0x1c;
    ioctl(-1, EVIOCGKEYCODE_V2, &ike);
    ioctl(-1, EVIOCSKEYCODE_V2, &ike);
    struct { unsigned int code; int values[3]; } mt = { ABS_MT_POSITION_X, { 1, -2, 3 } };
    ioctl(-1, EVIOCGMTSLOTS(sizeof(mt)), &mt);
    ioctl(-1, EVIOCRMFF, 3);
    ioctl(-1, EVIOCGRAB, 1);
    ioctl(-1, EVIOCREVOKE, 0);
    int clk = 1;
    ioctl(-1, EVIOCSCLOCKID, &clk);
    ioctl(-1, _IOC(_IOC_READ, 'E', 0xee, 4), 0);
    ioctl(-1, _IOC(_IOC_WRITE, 'E', 0xee, 4), 0);
    ioctl(-1, _IOC(_IOC_NONE, 'E', 0xee, 0), 0);
    ioctl(-1, EVIOCGNAME(sizeof(name)), NULL);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "evdev") == 0) {
        evdev_requests();
        return 0;
    }
    loop_failures();
    int n = loop_success();
    if (n >= 0)
        fprintf(stderr, "loop=%d\n", n);
    else
        fprintf(stderr, "loop=none\n");
    fs_requests();
    block_failures();
    perf_failures();
    kvm_requests();
    evdev_requests();
    return 0;
}
