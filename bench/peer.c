/* PyTorch as the peer: the same entries, sizes and thread count, run by
 * bench/torch_peer.py under Debian's python3-torch. The script gets one
 * argument per entry ("name=size0,size1,size2") and prints one line per
 * entry: "name SECONDS" or "name skip REASON". Thread settings go through
 * the environment, before torch is imported: OMP_NUM_THREADS and
 * OPENBLAS_NUM_THREADS (torch.set_num_threads does not reach the OpenBLAS
 * that torch's matmul calls), and torch.set_num_threads in the script. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static void set_thread_env(int threads)
{
    char text[16];
    snprintf(text, sizeof text, "%d", threads);
    setenv("OMP_NUM_THREADS", text, 1);
    setenv("OPENBLAS_NUM_THREADS", text, 1);
    setenv("MKL_NUM_THREADS", text, 1);
}

static bench_entry *find(bench_entry *entries, int count, const char *name)
{
    for (int i = 0; i < count; i++) {
        if (strcmp(entries[i].name, name) == 0) {
            return &entries[i];
        }
    }
    return NULL;
}

static void parse_line(char *line, bench_entry *entries, int count, char *version,
                       size_t version_size)
{
    line[strcspn(line, "\n")] = '\0';
    char *space = strchr(line, ' ');
    if (space == NULL) {
        return;
    }
    *space = '\0';
    const char *rest = space + 1;
    if (strcmp(line, "torch_version") == 0) {
        snprintf(version, version_size, "%s", rest);
        return;
    }
    bench_entry *e = find(entries, count, line);
    if (e == NULL) {
        return;
    }
    if (strncmp(rest, "skip", 4) == 0) {
        snprintf(e->note + strlen(e->note), sizeof e->note - strlen(e->note), "%storch: %s",
                 e->note[0] ? "; " : "", rest);
        return;
    }
    e->torch = strtod(rest, NULL);
}

int bench_peer_run(const bench_config *config, const char *python, const char *script,
                   bench_entry *entries, int count, char *why, size_t why_size, char *torch_version,
                   size_t version_size)
{
    if (access(python, X_OK) != 0 || access(script, R_OK) != 0) {
        snprintf(why, why_size, "no PyTorch peer: %s or %s missing", python, script);
        return -1;
    }
    enum { MAX_ARGS = 80 };
    char *argv[MAX_ARGS];
    char specs[64][96], threads[16], reps[16];
    int argc = 0;
    snprintf(threads, sizeof threads, "%d", config->threads);
    snprintf(reps, sizeof reps, "%d", config->reps);
    argv[argc++] = (char *)python;
    argv[argc++] = (char *)script;
    argv[argc++] = "--threads";
    argv[argc++] = threads;
    argv[argc++] = "--reps";
    argv[argc++] = reps;
    for (int i = 0; i < count && i < 64 && argc < MAX_ARGS - 1; i++) {
        snprintf(specs[i], sizeof specs[i], "%s=%lld,%lld,%lld", entries[i].name,
                 (long long)entries[i].size[0], (long long)entries[i].size[1],
                 (long long)entries[i].size[2]);
        argv[argc++] = specs[i];
    }
    argv[argc] = NULL;
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(why, why_size, "pipe: %s", strerror(errno));
        return -1;
    }
    set_thread_env(config->threads);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, why_size, "fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execv(python, argv);
        _exit(127);
    }
    close(fds[1]);
    FILE *in = fdopen(fds[0], "r");
    char line[512];
    while (in != NULL && fgets(line, sizeof line, in) != NULL) {
        parse_line(line, entries, count, torch_version, version_size);
    }
    if (in != NULL) {
        fclose(in);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(why, why_size, "the PyTorch peer exited with status %d (no torch for %s?)",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, python);
        return -1;
    }
    return 0;
}
