/* Allocation failure as a test: TESSERA_FAULT_ALLOC=N (compiled into the
 * sanitizer build, core/runtime/alloc.c) fails the Nth host allocation of the
 * core. Run without arguments, this program is the sweep: it writes an
 * input .npy, runs the workload once without a fault to learn the right
 * answer, then once per N = 1, 2, ... in a child process of its own, until a
 * run finishes without reaching its Nth allocation. Every child must end
 * with the right answer or a clean error (a status, a message naming the
 * call, the inputs of the failing call unchanged), and under ASan/LSan
 * without a leak or a memory error (a sanitizer report is a nonzero exit the
 * sweep does not accept). Run as `test_fault_alloc DIR`, it is one child.
 *
 * The workload: load a .npy, matmul, add, tanh, cross_entropy, backward,
 * an Adam step, tsr_state_save. */
#define _GNU_SOURCE
#include <tessera/tessera.h>

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum { CHILD_RIGHT = 0, CHILD_CLEAN_ERROR = 3, CHILD_BAD = 4, MAX_INPUTS = 4 };

/* ------------------------------------------------------------------------ */
/* The child: the workload, each call guarded                                */
/* ------------------------------------------------------------------------ */

typedef struct {
    const tsr_tensor *t[MAX_INPUTS];
    void *bytes[MAX_INPUTS];
    size_t size[MAX_INPUTS];
    int n;
} snapshot;

static size_t tensor_bytes(const tsr_tensor *t)
{
    return (size_t)tsr_tensor_numel(t) * tsr_dtype_size(tsr_tensor_dtype(t));
}

/* Copies each input to host memory (plain malloc: not counted). A failure
 * here is itself an injected one in tsr_to_host, a clean error. */
static int snapshot_take(snapshot *s)
{
    for (int i = 0; i < s->n; i++) {
        s->size[i] = tensor_bytes(s->t[i]);
        s->bytes[i] = malloc(s->size[i] ? s->size[i] : 1);
        if (tsr_to_host(s->t[i], s->bytes[i], s->size[i]) != TSR_OK)
            return 0;
    }
    return 1;
}

static void snapshot_drop(snapshot *s)
{
    for (int i = 0; i < s->n; i++) {
        free(s->bytes[i]);
        s->bytes[i] = NULL;
    }
}

/* The call failed: its message must name it, its inputs must be intact. */
static int failed(const char *call, tsr_status st, snapshot *s)
{
    const char *msg = tsr_last_error();
    fprintf(stderr, "child: %s failed with %s: %s\n", call, tsr_status_name(st), msg);
    /* A composite op may name the step that failed inside it ("sum: ...",
     * within cross_entropy); a bare "out of host memory" names nothing. */
    const char *oom = msg ? strstr(msg, "out of") : NULL;
    int bad = !msg || !*msg || (!strstr(msg, call) && (oom == msg || (oom && oom[-2] != ':')));
    if (bad)
        fprintf(stderr, "child: BAD: the message names no op (called: %s)\n", call);
    for (int i = 0; i < s->n; i++) {
        void *now = malloc(s->size[i] ? s->size[i] : 1);
        tsr_status again = tsr_to_host(s->t[i], now, s->size[i]);
        if (again == TSR_OK && memcmp(now, s->bytes[i], s->size[i]) != 0) {
            fprintf(stderr, "child: BAD: %s changed its input %d\n", call, i);
            bad = 1;
        }
        free(now);
    }
    snapshot_drop(s);
    return bad ? CHILD_BAD : CHILD_CLEAN_ERROR;
}

/* Runs `call` with inputs snapshotted; on failure ends the workload. */
#define GUARD(name, call, ...)                                                                     \
    do {                                                                                           \
        snapshot snap_ = {.t = {__VA_ARGS__}};                                                     \
        while (snap_.n < MAX_INPUTS && snap_.t[snap_.n])                                           \
            snap_.n++;                                                                             \
        if (!snapshot_take(&snap_)) {                                                              \
            rc = failed("to_host", TSR_ERR_OUT_OF_MEMORY, &snap_);                                 \
            goto done;                                                                             \
        }                                                                                          \
        tsr_status st_ = (call);                                                                   \
        if (st_ != TSR_OK) {                                                                       \
            rc = failed(name, st_, &snap_);                                                        \
            goto done;                                                                             \
        }                                                                                          \
        snapshot_drop(&snap_);                                                                     \
    } while (0)

static void print_tensor(const char *name, const tsr_tensor *t)
{
    float v[16] = {0};
    size_t n = (size_t)tsr_tensor_numel(t);
    if (n > 16 || tsr_to_host(t, v, n * sizeof *v) != TSR_OK) {
        printf("%s unreadable\n", name);
        return;
    }
    printf("%s", name);
    for (size_t i = 0; i < n; i++)
        printf(" %a", v[i]);
    printf("\n");
}

static int child(const char *dir)
{
    char npy[4096], out_dir[4096];
    snprintf(npy, sizeof npy, "%s/x.npy", dir);
    snprintf(out_dir, sizeof out_dir, "%s/state-%d", dir, (int)getpid());
    int rc = CHILD_BAD;
    tsr_tensor *x = NULL, *w = NULL, *b = NULL, *target = NULL, *h = NULL, *y = NULL, *z = NULL,
               *loss = NULL, *gw = NULL;
    tsr_optimizer *opt = NULL;
    const float wv[6] = {0.5f, -0.25f, 0.125f, 1.0f, -0.75f, 0.375f}, bv[2] = {0.1f, -0.2f};
    const int64_t ws[2] = {3, 2}, bs[1] = {2}, ts[1] = {4}, tv[4] = {0, 1, 1, 0};
    tsr_adam_options adam = tsr_adam_options_default();
    adam.lr = 0.05;

    GUARD("load_npy", tsr_load_npy(npy, NULL, &x), NULL);
    GUARD("from_host", tsr_from_host(wv, sizeof wv, 2, ws, TSR_FLOAT32, NULL, &w), NULL);
    GUARD("from_host", tsr_from_host(bv, sizeof bv, 1, bs, TSR_FLOAT32, NULL, &b), NULL);
    GUARD("from_host", tsr_from_host(tv, sizeof tv, 1, ts, TSR_INT64, NULL, &target), NULL);
    GUARD("requires_grad", tsr_tensor_set_requires_grad(w, true), w);
    GUARD("requires_grad", tsr_tensor_set_requires_grad(b, true), b);
    GUARD("matmul", tsr_matmul(x, w, &h), x, w);
    GUARD("add", tsr_add(h, b, &y), h, b);
    GUARD("tanh", tsr_unary(TSR_OP_TANH, y, &z), y);
    GUARD("cross_entropy",
          tsr_cross_entropy(z, target, NULL, TSR_IGNORE_INDEX_DEFAULT, TSR_LOSS_MEAN, 0.1, &loss),
          z, target);
    GUARD("backward", tsr_backward(loss, NULL, 0), loss, w, b);
    GUARD("grad", tsr_tensor_grad(w, &gw), NULL);
    tsr_tensor *params[2] = {w, b};
    GUARD("optimizer_create_adam", tsr_optimizer_create_adam(params, 2, &adam, &opt), w, b);
    /* A failing step may have updated the parameters before the failing one
     * (documented, as PyTorch): only the gradients must stay. */
    GUARD("optimizer_step", tsr_optimizer_step(opt), gw);
    const char *names[2] = {"w", "b"};
    GUARD("state_save", tsr_state_save(out_dir, (const tsr_tensor *const *)params, names, 2, opt),
          w, b);
    print_tensor("loss", loss);
    print_tensor("w", w);
    print_tensor("b", b);
    rc = CHILD_RIGHT;
done:
    tsr_optimizer_destroy(opt);
    const tsr_tensor *all[] = {x, w, b, target, h, y, z, loss, gw};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        tsr_tensor_release(all[i]);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", out_dir);
    if (system(cmd) != 0)
        rc = CHILD_BAD;
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The sweep                                                                 */
/* ------------------------------------------------------------------------ */

static int slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
    return 1;
}

/* Runs one child with TESSERA_FAULT_ALLOC=n (0: none); returns its exit
 * status (or 128 + signal) and leaves its stdout and stderr in dir. */
static int run_child(const char *self, const char *dir, long n)
{
    char value[32], out[4096], err[4096];
    snprintf(value, sizeof value, "%ld", n);
    snprintf(out, sizeof out, "%s/child.out", dir);
    snprintf(err, sizeof err, "%s/child.err", dir);
    setenv("TESSERA_FAULT_ALLOC", value, 1);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    char *argv[] = {(char *)self, (char *)dir, NULL};
    pid_t pid;
    int spawned = posix_spawn(&pid, self, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    unsetenv("TESSERA_FAULT_ALLOC");
    if (spawned != 0) {
        fprintf(stderr, "cannot start %s: %s\n", self, strerror(spawned));
        return -1;
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int write_input(const char *dir)
{
    const float xv[12] = {0.3f, -1.2f, 0.8f, 1.5f, 0.1f, -0.4f, -0.9f, 0.6f, 0.2f, 0.0f, 2.0f, -1.0f};
    const int64_t shape[2] = {4, 3};
    tsr_tensor *x = NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/x.npy", dir);
    tsr_status st = tsr_from_host(xv, sizeof xv, 2, shape, TSR_FLOAT32, NULL, &x);
    if (st == TSR_OK)
        st = tsr_save_npy(path, x);
    tsr_tensor_release(x);
    return st == TSR_OK;
}

static int sweep(const char *self)
{
    char dir[] = "/tmp/tessera-fault-XXXXXX", out[4096], err[4096];
    static char right[4096], got[4096], log[65536];
    if (!mkdtemp(dir) || !write_input(dir)) {
        fprintf(stderr, "FAIL: cannot write the input under %s\n", dir);
        return 1;
    }
    snprintf(out, sizeof out, "%s/child.out", dir);
    snprintf(err, sizeof err, "%s/child.err", dir);
    if (run_child(self, dir, 0) != CHILD_RIGHT || !slurp(out, right, sizeof right)) {
        slurp(err, log, sizeof log);
        fprintf(stderr, "FAIL: the workload fails without a fault:\n%s\n", log);
        return 1;
    }
    long injected = 0, clean = 0, right_anyway = 0, failures = 0, n;
    for (n = 1; n < 100000; n++) {
        int rc = run_child(self, dir, n);
        slurp(err, log, sizeof log);
        int hit = strstr(log, "TESSERA_FAULT_ALLOC=") != NULL;
        if (!hit && rc == CHILD_RIGHT)
            break; /* the workload makes fewer than n allocations */
        injected += hit;
        int ok = 0;
        if (rc == CHILD_CLEAN_ERROR && hit) {
            clean++;
            ok = 1;
        } else if (rc == CHILD_RIGHT && slurp(out, got, sizeof got) && strcmp(got, right) == 0) {
            right_anyway++; /* the failure was absorbed (a cache, a retry) */
            ok = 1;
        }
        if (!ok) {
            failures++;
            fprintf(stderr, "FAIL: TESSERA_FAULT_ALLOC=%ld: exit %d\n%s\n", n, rc, log);
            if (failures >= 10)
                break;
        }
    }
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "warning: %s is left behind\n", dir);
    printf("fault_alloc: %ld runs, %ld failures injected: %ld clean errors, %ld right answers, "
           "%ld bad\n",
           n, injected, clean, right_anyway, failures);
    if (injected == 0) {
        fprintf(stderr, "FAIL: no failure was injected: is TSR_FAULT_ALLOC compiled in?\n");
        return 1;
    }
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 2)
        return child(argv[1]);
#ifndef TSR_TEST_FAULT_ALLOC
    printf("fault_alloc: SKIP: TESSERA_FAULT_ALLOC is compiled only into the sanitizer build "
           "(-DTESSERA_SANITIZE=ON)\n");
    (void)sweep;
    return 77;
#else
    return sweep("/proc/self/exe");
#endif
}
