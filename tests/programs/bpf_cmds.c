/* bpf(2) with every command strace 6.1 decodes, valid and invalid: a real array map and a
 * tiny socket-filter program (so the *_GET_FD_BY_ID, TEST_RUN and INFO commands have objects),
 * then each attribute layout with bogus values, short and over-long sizes, bad pointers.
 */
#define _GNU_SOURCE
#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BAD ((void *) 8)
#define PTR(p) ((uint64_t) (uintptr_t) (p))

static long sys_bpf(int cmd, void *attr, unsigned int size)
{
    return syscall(SYS_bpf, cmd, attr, size);
}

int main(void)
{
    union bpf_attr a;
    char big[sizeof a + 16];

    /* a map */
    memset(&a, 0, sizeof a);
    a.map_type = BPF_MAP_TYPE_ARRAY;
    a.key_size = 4;
    a.value_size = 8;
    a.max_entries = 4;
    a.map_flags = BPF_F_NUMA_NODE;
    a.numa_node = 0;
    strcpy(a.map_name, "pytrace_map");
    int map = sys_bpf(BPF_MAP_CREATE, &a, offsetof(union bpf_attr, map_extra) + 8);

    /* a program: r0 = 0; exit */
    struct bpf_insn insns[] = {
        { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
        { .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1, .src_reg = 1, .imm = map },
        { .code = 0, .imm = 0 },
        { .code = BPF_JMP | BPF_JNE | BPF_X, .dst_reg = BPF_REG_1, .src_reg = BPF_REG_10, .off = -1, .imm = -2 },
        { .code = BPF_STX | BPF_DW | BPF_MEM, .dst_reg = 10, .src_reg = 0, .off = -8 },
        { .code = BPF_JMP32 | BPF_JA, .dst_reg = 0xf, .src_reg = 0xb },
        { .code = BPF_JMP | BPF_EXIT },
    };
    char log[64] = "";
    memset(&a, 0, sizeof a);
    a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
    a.insn_cnt = 2;
    a.insns = PTR(insns);
    a.insns = PTR(insns + 5);
    a.license = PTR("GPL");
    a.log_level = 1;
    a.log_size = sizeof log;
    a.log_buf = PTR(log);
    a.kern_version = 0x040900;
    strcpy(a.prog_name, "pytrace_prog");
    /* first the insns the verifier rejects, then a good one */
    a.insns = PTR(insns);
    a.insn_cnt = sizeof insns / sizeof insns[0];
    sys_bpf(BPF_PROG_LOAD, &a, sizeof a);
    static struct bpf_insn ok[] = {
        { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
        { .code = BPF_JMP | BPF_EXIT },
    };
    a.insns = PTR(ok);
    a.insn_cnt = 2;
    a.log_level = 0;
    a.log_size = 0;
    a.log_buf = 0;
    int prog = sys_bpf(BPF_PROG_LOAD, &a, offsetof(union bpf_attr, fd_array) + 8);
    sys_bpf(BPF_PROG_LOAD, &a, offsetof(union bpf_attr, prog_flags));
    a.prog_flags = 0x40;
    a.expected_attach_type = 999;
    sys_bpf(BPF_PROG_LOAD, &a, offsetof(union bpf_attr, prog_btf_fd));
    sys_bpf(BPF_PROG_LOAD, BAD, 20);

    /* test run */
    char pkt[64] = { 0 }, out[64];
    memset(&a, 0, sizeof a);
    a.test.prog_fd = 99; /* EBADF: nothing runs, duration stays 0 */
    a.test.data_in = PTR(pkt);
    a.test.data_size_in = sizeof pkt;
    a.test.data_out = PTR(out);
    a.test.data_size_out = sizeof out;
    a.test.repeat = 1;
    sys_bpf(BPF_PROG_TEST_RUN, &a, offsetof(union bpf_attr, test.ctx_size_in));
    a.test.flags = 0x10;
    sys_bpf(BPF_PROG_TEST_RUN, &a, sizeof a.test);

    /* ids */
    memset(&a, 0, sizeof a);
    a.start_id = 0xfffffff0; /* ids are machine-wide: ask past the last one */
    sys_bpf(BPF_PROG_GET_NEXT_ID, &a, 8);
    memset(&a, 0, sizeof a);
    a.start_id = 0xfffffff0;
    sys_bpf(BPF_MAP_GET_NEXT_ID, &a, 12);
    a.open_flags = BPF_F_RDONLY | 0x100;
    sys_bpf(BPF_BTF_GET_NEXT_ID, &a, 12);
    sys_bpf(BPF_LINK_GET_NEXT_ID, &a, 12);
    memset(&a, 0, sizeof a);
    a.prog_id = 0xfffffff0;
    sys_bpf(BPF_PROG_GET_FD_BY_ID, &a, 12);
    a.map_id = 0xfffffff1;
    a.open_flags = BPF_F_WRONLY;
    sys_bpf(BPF_MAP_GET_FD_BY_ID, &a, 12);
    sys_bpf(BPF_BTF_GET_FD_BY_ID, &a, 4);
    sys_bpf(BPF_LINK_GET_FD_BY_ID, &a, 4);

    /* info, without -v: addresses */
    char info[256];
    memset(&a, 0, sizeof a);
    a.info.bpf_fd = 99;
    a.info.info_len = sizeof info;
    a.info.info = PTR(info);
    sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, 16);

    /* pin / get */
    memset(&a, 0, sizeof a);
    a.pathname = PTR("/nonexistent/bpf/pin");
    a.bpf_fd = prog;
    sys_bpf(BPF_OBJ_PIN, &a, 16);
    a.file_flags = BPF_F_RDONLY;
    sys_bpf(BPF_OBJ_GET, &a, 16);
    sys_bpf(BPF_OBJ_GET, &a, 12);

    /* attach / detach / query */
    memset(&a, 0, sizeof a);
    a.target_fd = 99;
    a.attach_bpf_fd = prog;
    a.attach_type = BPF_CGROUP_INET_EGRESS;
    a.attach_flags = BPF_F_ALLOW_MULTI | BPF_F_REPLACE;
    a.replace_bpf_fd = 98;
    sys_bpf(BPF_PROG_ATTACH, &a, 20);
    sys_bpf(BPF_PROG_ATTACH, &a, 16);
    sys_bpf(BPF_PROG_DETACH, &a, 12);
    uint32_t ids[4];
    memset(&a, 0, sizeof a);
    a.query.target_fd = 99;
    a.query.attach_type = BPF_CGROUP_SOCK_OPS;
    a.query.query_flags = BPF_F_QUERY_EFFECTIVE;
    a.query.prog_ids = PTR(ids);
    a.query.prog_cnt = 4;
    sys_bpf(BPF_PROG_QUERY, &a, 28);

    /* raw tracepoint, btf */
    memset(&a, 0, sizeof a);
    a.raw_tracepoint.name = PTR("sys_enter");
    a.raw_tracepoint.prog_fd = prog;
    sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &a, 12);
    memset(&a, 0, sizeof a);
    a.btf = PTR("\x9f\xeb\x01\0junk");
    a.btf_size = 8;
    a.btf_log_level = 1;
    sys_bpf(BPF_BTF_LOAD, &a, 28);

    /* task fd query */
    char name[32] = "";
    memset(&a, 0, sizeof a);
    a.task_fd_query.pid = 0x7fffffff; /* no such process: the same text under any tracer */
    a.task_fd_query.fd = map;
    a.task_fd_query.buf = PTR(name);
    a.task_fd_query.buf_len = sizeof name;
    sys_bpf(BPF_TASK_FD_QUERY, &a, 48);

    /* elements and batches */
    uint32_t key = 1, keys[2] = { 0, 1 };
    uint64_t value = 42, values[2] = { 1, 2 };
    memset(&a, 0, sizeof a);
    a.map_fd = map;
    a.key = PTR(&key);
    a.value = PTR(&value);
    a.flags = BPF_EXIST;
    sys_bpf(BPF_MAP_UPDATE_ELEM, &a, 32);
    a.flags = BPF_F_LOCK;
    sys_bpf(BPF_MAP_LOOKUP_ELEM, &a, 32);
    sys_bpf(BPF_MAP_LOOKUP_ELEM, &a, 24);
    sys_bpf(BPF_MAP_DELETE_ELEM, &a, 16);
    sys_bpf(BPF_MAP_GET_NEXT_KEY, &a, 24);
    sys_bpf(BPF_MAP_LOOKUP_AND_DELETE_ELEM, &a, 32);
    sys_bpf(BPF_MAP_FREEZE, &a, 4);
    memset(&a, 0, sizeof a);
    a.batch.keys = PTR(keys);
    a.batch.values = PTR(values);
    a.batch.count = 2;
    a.batch.map_fd = map;
    sys_bpf(BPF_MAP_UPDATE_BATCH, &a, 56);
    uint64_t out_batch;
    a.batch.out_batch = PTR(&out_batch);
    sys_bpf(BPF_MAP_LOOKUP_BATCH, &a, 56);
    a.batch.count = 2;
    a.batch.elem_flags = BPF_F_LOCK;
    sys_bpf(BPF_MAP_LOOKUP_AND_DELETE_BATCH, &a, 56);
    a.batch.count = 2;
    a.batch.elem_flags = 0;
    sys_bpf(BPF_MAP_DELETE_BATCH, &a, 56);

    /* links */
    memset(&a, 0, sizeof a);
    a.link_create.prog_fd = prog;
    a.link_create.target_fd = 99;
    a.link_create.attach_type = BPF_PERF_EVENT;
    a.link_create.perf_event.bpf_cookie = 0xdeadbeef;
    sys_bpf(BPF_LINK_CREATE, &a, 48);
    a.link_create.attach_type = BPF_CGROUP_INET_INGRESS;
    a.link_create.target_btf_id = 7;
    sys_bpf(BPF_LINK_CREATE, &a, 48);
    a.link_create.attach_type = BPF_TRACE_ITER;
    uint32_t iter[1] = { (uint32_t) map };
    a.link_create.iter_info = PTR(iter);
    a.link_create.iter_info_len = 1;
    sys_bpf(BPF_LINK_CREATE, &a, 48);
    a.link_create.attach_type = BPF_CGROUP_SYSCTL;
    a.link_create.iter_info = 0;
    sys_bpf(BPF_LINK_CREATE, &a, 48);
    memset(&a, 0, sizeof a);
    a.link_update.link_fd = 99;
    a.link_update.new_prog_fd = prog;
    a.link_update.flags = BPF_F_REPLACE;
    a.link_update.old_prog_fd = 97;
    sys_bpf(BPF_LINK_UPDATE, &a, 16);

    /* no decoder in strace 6.1, bogus commands, sizes */
    sys_bpf(BPF_LINK_DETACH, &a, 4);
    sys_bpf(BPF_ENABLE_STATS, &a, 4);
    sys_bpf(BPF_ITER_CREATE, &a, 8);
    sys_bpf(BPF_PROG_BIND_MAP, &a, 12);
    sys_bpf(999, &a, 16);
    sys_bpf(BPF_MAP_FREEZE, &a, 0);
    sys_bpf(BPF_MAP_FREEZE, &a, 8192);
    sys_bpf(BPF_MAP_FREEZE, NULL, 4);
    memset(big, 0, sizeof big);
    sys_bpf(BPF_MAP_FREEZE, big, sizeof big);
    big[sizeof big - 1] = 1;
    sys_bpf(BPF_MAP_FREEZE, big, sizeof big);
    close(prog);
    close(map);
    puts("done");
    return 0;
}
