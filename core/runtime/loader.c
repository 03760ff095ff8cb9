/* Finding, loading and choosing plugins.
 *
 * Candidates are the libtessera_*.so files of TESSERA_PLUGIN_PATH's
 * directories, then of the default directory beside libtessera.so. Each is
 * opened and probed on first use; init runs when a backend is first asked
 * for, so a program pays only for the backends it uses. */
#include "runtime/loader.h"

#include "runtime/alloc.h"
#include "runtime/backend.h"
#include "runtime/error.h"

#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fields of ABI 1.0; a plugin's struct_size must cover them. */
#define PLUGIN_V1_0_SIZE (offsetof(tsr_plugin, synchronize) + sizeof(void *))
_Static_assert(PLUGIN_V1_0_SIZE <= sizeof(tsr_plugin), "tsr_plugin only grows");

static tsr__plugin_record *records;
static size_t record_count, record_capacity;
static pthread_mutex_t loader_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t discovery_once = PTHREAD_ONCE_INIT;

static tsr__plugin_record *new_record(const char *path)
{
    if (record_count == record_capacity) {
        size_t cap = record_capacity ? record_capacity * 2 : 8;
        tsr__plugin_record *grown = tsr__realloc(records, cap * sizeof *grown);
        if (!grown)
            return NULL;
        records = grown;
        record_capacity = cap;
    }
    tsr__plugin_record *r = &records[record_count++];
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    /* libtessera_NAME.so → NAME, used until the plugin tells its own name */
    snprintf(r->name, sizeof r->name, "%.*s", (int)(strlen(base) - strlen("libtessera_.so")),
             base + strlen("libtessera_"));
    return r;
}

static void refuse(tsr__plugin_record *r, const char *fmt, const char *detail)
{
    snprintf(r->reason, sizeof r->reason, fmt, detail);
    r->state = TSR__PLUGIN_REFUSED;
    tsr__log("loader", "refused %s: %s", r->path, r->reason);
    if (r->library) {
        dlclose(r->library);
        r->library = NULL;
    }
}

/* The first member of ABI 1.0 that every plugin must provide but `p` leaves
 * NULL, named so the refusal says which one. */
static const char *missing_required_function(const tsr_plugin *p)
{
    if (!p->init)
        return "init";
    if (!p->shutdown)
        return "shutdown";
    if (!p->kernels)
        return "kernels";
    if (!p->memory_alloc)
        return "memory_alloc";
    if (!p->memory_free)
        return "memory_free";
    if (!p->copy_from_host)
        return "copy_from_host";
    if (!p->copy_to_host)
        return "copy_to_host";
    return NULL;
}

static bool table_is_usable(tsr__plugin_record *r, const tsr_plugin *p)
{
    char detail[160];
    if (p->struct_size < PLUGIN_V1_0_SIZE) {
        snprintf(detail, sizeof detail, "%u bytes, need at least %zu", p->struct_size,
                 (size_t)PLUGIN_V1_0_SIZE);
        refuse(r, "plugin table too small (%s)", detail);
        return false;
    }
    if (p->abi_version >> 16 != TSR_PLUGIN_ABI_MAJOR) {
        snprintf(detail, sizeof detail, "plugin ABI %u.%u, core ABI %d.%d", p->abi_version >> 16,
                 p->abi_version & 0xffff, TSR_PLUGIN_ABI_MAJOR, TSR_PLUGIN_ABI_MINOR);
        refuse(r, "incompatible ABI major version (%s)", detail);
        return false;
    }
    if (!p->name || !*p->name || strlen(p->name) >= sizeof r->name || strchr(p->name, ',')) {
        refuse(r, "%s", "plugin table has a missing or invalid name");
        return false;
    }
    const char *missing = missing_required_function(p);
    if (missing) {
        refuse(r, "plugin table lacks the required function '%s'", missing);
        return false;
    }
    for (size_t i = 0; i < record_count; i++) {
        tsr__plugin_record *other = &records[i];
        if (other != r && other->plugin && strcmp(other->name, p->name) == 0) {
            refuse(r, "a plugin named '%s' was already found earlier on the path", p->name);
            return false;
        }
    }
    return true;
}

/* Calling a data object as the entry would crash the host: the dynamic
 * symbol table says what the symbol is (STT_FUNC, or STT_GNU_IFUNC, which
 * dlsym has already resolved to a function). A plugin that lies in its
 * symbol table, or whose function is wrong code, cannot be caught here. */
static bool is_function_symbol(void *symbol)
{
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    if (!dladdr1(symbol, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym)
        return false;
    int type = ELF64_ST_TYPE(sym->st_info);
    return type == STT_FUNC || type == STT_GNU_IFUNC;
}

static void open_candidate(tsr__plugin_record *r)
{
    r->library = dlopen(r->path, RTLD_NOW | RTLD_LOCAL);
    if (!r->library) {
        refuse(r, "dlopen failed: %s", dlerror());
        return;
    }
    void *symbol = dlsym(r->library, TSR_PLUGIN_ENTRY_SYMBOL);
    if (!symbol) {
        refuse(r, "no entry symbol '%s'", TSR_PLUGIN_ENTRY_SYMBOL);
        return;
    }
    if (!is_function_symbol(symbol)) {
        refuse(r, "the entry symbol '%s' is not a function", TSR_PLUGIN_ENTRY_SYMBOL);
        return;
    }
    tsr_plugin_entry_fn entry;
    *(void **)&entry = symbol;
    tsr_clear_error();
    const tsr_plugin *p = entry(tsr__host_api(), TSR_PLUGIN_ABI_VERSION);
    if (!p) {
        refuse(r, "the plugin refused this host: %s",
               *tsr_last_error() ? tsr_last_error() : "no reason given");
        return;
    }
    if (!table_is_usable(r, p))
        return;
    r->plugin = p;
    snprintf(r->name, sizeof r->name, "%s", p->name);
    snprintf(r->version, sizeof r->version, "%s", p->version ? p->version : "");
    r->score = 0;
    if (p->probe) {
        char reason[256] = "";
        r->score = p->probe(tsr__host_api(), reason, sizeof reason);
        reason[sizeof reason - 1] = '\0'; /* the plugin may have filled it all */
        snprintf(r->probe_reason, sizeof r->probe_reason, "%s", reason);
    }
    r->state = TSR__PLUGIN_FOUND;
    tsr__log("loader", "found %s: backend '%s' version '%s', probe score %d%s%s", r->path,
             r->name, r->version, r->score, *r->probe_reason ? ", " : "", r->probe_reason);
}

static bool already_seen(const char *real)
{
    for (size_t i = 0; i < record_count; i++) {
        if (strcmp(records[i].real_path, real) == 0)
            return true;
    }
    return false;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static bool is_plugin_file(const char *name)
{
    size_t n = strlen(name);
    return n > strlen("libtessera_.so") && strncmp(name, "libtessera_", 11) == 0 &&
           strcmp(name + n - 3, ".so") == 0;
}

/* Lists a directory's plugin files in name order so loading is reproducible. */
static void scan_directory(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        tsr__log("loader", "skipping directory %s: cannot open it", dir);
        return;
    }
    /* Discovery runs once (pthread_once), so the names live in static
     * storage: no allocation can fail here and drop a plugin from the list. */
    static char names[256][sizeof(((struct dirent *)0)->d_name)];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;) {
        if (is_plugin_file(e->d_name))
            snprintf(names[n++], sizeof names[0], "%s", e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof names[0], compare_names);
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX], real[PATH_MAX];
        snprintf(path, sizeof path, "%s/%.*s", dir, (int)sizeof names[0] - 1, names[i]);
        if (!realpath(path, real)) {
            /* a dangling symlink, most often: say so, or the plugin just vanishes */
            tsr__log("loader", "skipping %s: cannot resolve it: %s", path, strerror(errno));
            continue;
        }
        if (already_seen(real)) {
            tsr__log("loader", "skipping %s: the same file was already found", path);
            continue;
        }
        tsr__plugin_record *r = new_record(path);
        if (!r)
            break;
        snprintf(r->real_path, sizeof r->real_path, "%s", real);
        tsr__log("loader", "candidate %s", path);
        open_candidate(r);
    }
}

/* The directory "tessera" beside libtessera.so itself, so an installed or
 * build-tree library finds its own plugins whatever the executable. */
static void default_directory(char *out, size_t cap)
{
    Dl_info info;
    out[0] = '\0';
    if (!dladdr((void *)default_directory, &info) || !info.dli_fname)
        return;
    char real[PATH_MAX];
    if (!realpath(info.dli_fname, real))
        return;
    char *slash = strrchr(real, '/');
    if (slash)
        *slash = '\0';
    size_t n = strlen(real);
    if (n + sizeof "/tessera" > cap)
        return;
    memcpy(out, real, n);
    memcpy(out + n, "/tessera", sizeof "/tessera");
}

static void discover(void)
{
    const char *env = getenv("TESSERA_PLUGIN_PATH");
    if (env && *env) {
        char *copy = tsr__strdup(env), *save = NULL;
        for (char *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir;
             dir = strtok_r(NULL, ":", &save))
            scan_directory(dir);
        free(copy);
    }
    char dir[PATH_MAX];
    default_directory(dir, sizeof dir);
    if (*dir)
        scan_directory(dir);
}

void tsr__loader_discover(void)
{
    pthread_once(&discovery_once, discover);
}

size_t tsr__plugin_record_count(void)
{
    tsr__loader_discover();
    return record_count;
}

tsr__plugin_record *tsr__plugin_record_at(size_t i)
{
    tsr__loader_discover();
    return i < record_count ? &records[i] : NULL;
}

void tsr__loader_lock(void)
{
    pthread_mutex_lock(&loader_mutex);
}

void tsr__loader_unlock(void)
{
    pthread_mutex_unlock(&loader_mutex);
}
