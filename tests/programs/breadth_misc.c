/* Kernel-facility syscalls through syscall(2): bpf, perf_event_open, landlock, keys, modules,
 * kexec, the new mount API, clock adjustment (read-only) and obsolete entries, with valid and
 * invalid arguments.  Nothing here changes the machine: every call that could is refused
 * by the kernel before acting (bad magic, bad fd, read-only modes).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/landlock.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

#define BAD ((void *) 8)

int main(void)
{
    /* bpf */
    union bpf_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.map_type = BPF_MAP_TYPE_ARRAY;
    attr.key_size = 4;
    attr.value_size = 8;
    attr.max_entries = 2;
    int map = syscall(SYS_bpf, BPF_MAP_CREATE, &attr, 72);
    syscall(SYS_bpf, BPF_MAP_CREATE, BAD, 72);
    syscall(SYS_bpf, 999, &attr, 72);
    memset(&attr, 0, sizeof attr);
    uint32_t key = 0;
    uint64_t value = 0;
    attr.map_fd = map;
    attr.key = (uint64_t) (uintptr_t) &key;
    attr.value = (uint64_t) (uintptr_t) &value;
    syscall(SYS_bpf, BPF_MAP_LOOKUP_ELEM, &attr, 32);
    close(map);

    /* perf_event_open */
    struct perf_event_attr pe;
    memset(&pe, 0, sizeof pe);
    pe.type = PERF_TYPE_SOFTWARE;
    pe.size = sizeof pe;
    pe.config = PERF_COUNT_SW_DUMMY;
    pe.disabled = 1;
    pe.exclude_kernel = 1;
    int pfd = syscall(SYS_perf_event_open, &pe, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    syscall(SYS_perf_event_open, BAD, 0, -1, -1, 0);
    syscall(SYS_perf_event_open, &pe, -1, -1, -1, 0x80);
    close(pfd);

    /* landlock */
    syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    struct landlock_ruleset_attr rs = { .handled_access_fs = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE };
    int ruleset = syscall(SYS_landlock_create_ruleset, &rs, sizeof rs, 0);
    syscall(SYS_landlock_create_ruleset, BAD, sizeof rs, 0);
    struct landlock_path_beneath_attr pb = { .allowed_access = LANDLOCK_ACCESS_FS_READ_FILE, .parent_fd = 99 };
    syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
    syscall(SYS_landlock_add_rule, ruleset, 7, NULL, 0);
    syscall(SYS_landlock_restrict_self, 99, 0);
    syscall(SYS_landlock_restrict_self, ruleset, 0x4);
    close(ruleset);

    /* keys */
    syscall(SYS_add_key, "user", "pytrace:breadth", "secret", 6, -2 /* KEY_SPEC_PROCESS_KEYRING */);
    syscall(SYS_add_key, "nosuchtype", "x", NULL, 0, -4 /* KEY_SPEC_USER_KEYRING */);
    syscall(SYS_request_key, "user", "pytrace:nosuch", NULL, 0);
    syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -2, 0, 0, 0);
    syscall(SYS_keyctl, 999, 0, 0, 0, 0);

    /* modules, kexec, all refused */
    syscall(SYS_delete_module, "pytrace_nosuch_module", O_NONBLOCK);
    syscall(SYS_finit_module, 99, "", 0);
    syscall(SYS_init_module, BAD, 0, "");
    syscall(SYS_kexec_file_load, 99, 99, 0, "", 0x40);
    syscall(SYS_kexec_load, 0, 0, NULL, 0xffff0000);

    /* new mount API */
    int fsfd = syscall(SYS_fsopen, "tmpfs", 1 /* FSOPEN_CLOEXEC */);
    syscall(SYS_fsopen, "nosuchfs", 0);
    syscall(SYS_fsconfig, fsfd, 1 /* FSCONFIG_SET_STRING */, "size", "64k", 0);
    syscall(SYS_fsconfig, fsfd, 0 /* FSCONFIG_SET_FLAG */, "ro", NULL, 0);
    syscall(SYS_fsconfig, 99, 6 /* FSCONFIG_CMD_CREATE */, NULL, NULL, 0);
    syscall(SYS_fsmount, 99, 1 /* FSMOUNT_CLOEXEC */, 0x1 /* MOUNT_ATTR_RDONLY */);
    syscall(SYS_fspick, AT_FDCWD, "/nosuch", 1);
    syscall(SYS_open_tree, AT_FDCWD, "/nosuch", 1 /* OPEN_TREE_CLONE */);
    syscall(SYS_move_mount, 99, "", AT_FDCWD, "/nosuch", 4 /* MOVE_MOUNT_F_EMPTY_PATH */);
    syscall(SYS_mount_setattr, AT_FDCWD, "/nosuch", 0, NULL, 0);
    close(fsfd);

    /* clock adjustment, read only */
    struct timex tx;
    memset(&tx, 0, sizeof tx);
    syscall(SYS_adjtimex, &tx);
    memset(&tx, 0, sizeof tx);
    syscall(SYS_clock_adjtime, CLOCK_REALTIME, &tx);
    syscall(SYS_adjtimex, BAD);
    syscall(SYS_clock_adjtime, 99, &tx);
    syscall(SYS_clock_adjtime, CLOCK_REALTIME, BAD);

    /* obsolete and unimplemented entries */
    syscall(SYS_uselib, "/nosuch");
    syscall(SYS_ustat, 0, BAD);
    syscall(SYS_sysfs, 99, 0, 0);
    syscall(SYS__sysctl, NULL);
    syscall(SYS_create_module, "x", 0);
    syscall(SYS_get_kernel_syms, NULL);
    syscall(SYS_query_module, NULL, 0, NULL, 0, NULL);
    syscall(SYS_nfsservctl, 0, NULL, NULL);
    syscall(SYS_getpmsg, 0, 0, 0, 0, 0);
    syscall(SYS_putpmsg, 0, 0, 0, 0, 0);
    syscall(SYS_afs_syscall, 0, 0, 0, 0, 0);
    syscall(SYS_tuxcall, 0, 0, 0, 0, 0);
    syscall(SYS_security, 0, 0, 0, 0, 0);
    syscall(SYS_vserver, 0, 0, 0, 0, 0);
    syscall(SYS_lookup_dcookie, 0, NULL, 0);
    syscall(SYS_epoll_ctl_old, 0, 0, 0, 0);
    syscall(SYS_epoll_wait_old, 0, 0, 0, 0);
    syscall(SYS_quotactl_fd, 99, 0x800002, 0, NULL);
    syscall(SYS_set_thread_area, BAD);
    syscall(SYS_get_thread_area, BAD);
    return 0;
}
