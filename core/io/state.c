/* Saving and loading training state: one .npy file per tensor and a text
 * index, written last (through a rename) so a directory without a complete
 * index is never mistaken for a saved state. The index, one record a line:
 *
 *   tessera-state 1
 *   param NAME FILE DTYPE NDIM D0 D1 ...
 *   optimizer KIND COUNT
 *   option KEY VALUE                      (%.17g, so doubles round-trip)
 *   step I N
 *   state I KEY FILE DTYPE NDIM D0 D1 ...
 *   end
 *
 * Loading reads and checks every file before it writes anything. A path
 * ending in ".safetensors" is one file instead (io/state_place.c): the same
 * index in its __metadata__, each tensor under its record's FILE key. */
#include "io/state_place.h"
#include "runtime/error.h"
#include "optim/optim.h"
#include "runtime/alloc.h"
#include "tensor/shape.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { NAME_CAP = 256, PATH_CAP = 4096, LINE_CAP = 1024 };

static const char INDEX_NAME[] = "index.txt";
static const char INDEX_MAGIC[] = "tessera-state 1";

/* ======================================================================== */
/* Options as text                                                           */
/* ======================================================================== */

typedef struct option_field {
    const char *key;
    size_t offset;
    bool is_bool;
} option_field;

static const option_field sgd_fields[] = {
    {"lr", offsetof(tsr_sgd_options, lr), false},
    {"momentum", offsetof(tsr_sgd_options, momentum), false},
    {"dampening", offsetof(tsr_sgd_options, dampening), false},
    {"weight_decay", offsetof(tsr_sgd_options, weight_decay), false},
    {"nesterov", offsetof(tsr_sgd_options, nesterov), true},
    {"maximize", offsetof(tsr_sgd_options, maximize), true},
    {NULL, 0, false},
};

static const option_field adam_fields[] = {
    {"lr", offsetof(tsr_adam_options, lr), false},
    {"beta1", offsetof(tsr_adam_options, beta1), false},
    {"beta2", offsetof(tsr_adam_options, beta2), false},
    {"eps", offsetof(tsr_adam_options, eps), false},
    {"weight_decay", offsetof(tsr_adam_options, weight_decay), false},
    {"amsgrad", offsetof(tsr_adam_options, amsgrad), true},
    {"maximize", offsetof(tsr_adam_options, maximize), true},
    {NULL, 0, false},
};

/* The option table of an optimiser of this kind. */
static const option_field *kind_fields(tsr__optim_kind kind)
{
    return kind == TSR__OPTIM_SGD ? sgd_fields : adam_fields;
}

/* ======================================================================== */
/* Saving                                                                    */
/* ======================================================================== */

static tsr_status join_path(const char *dir, const char *file, char *out)
{
    int n = snprintf(out, PATH_CAP, "%s/%s", dir, file);
    if (n < 0 || n >= PATH_CAP)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "state: path \"%s/%s\" is too long", dir,
                              file);
    return TSR_OK;
}

static bool valid_name(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n >= NAME_CAP)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)name[i] <= ' ' || name[i] == 0x7f)
            return false;
    return true;
}

/* names[i], or "param<i>" in buf when names is NULL. */
static const char *param_name(const char *const *names, size_t i, char *buf)
{
    if (names)
        return names[i];
    snprintf(buf, NAME_CAP, "param%zu", i);
    return buf;
}

static tsr_status check_names(const char *op, const char *const *names, size_t count)
{
    for (size_t i = 0; names && i < count; i++) {
        if (!valid_name(names[i]))
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: names[%zu] must be 1 to %d characters without whitespace",
                                  op, i, NAME_CAP - 1);
        for (size_t j = 0; j < i; j++)
            if (strcmp(names[i], names[j]) == 0)
                return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: the name \"%s\" is used twice",
                                      op, names[i]);
    }
    return TSR_OK;
}

static void write_geometry(FILE *f, const tsr_tensor *t)
{
    fprintf(f, " %s %d", tsr_dtype_name(tsr_tensor_dtype(t)), tsr_tensor_ndim(t));
    for (int d = 0; d < tsr_tensor_ndim(t); d++)
        fprintf(f, " %lld", (long long)tsr_tensor_shape(t)[d]);
    fputc('\n', f);
}

/* A record's file name, or its key inside a single .safetensors file. */
static const char *file_suffix(const tsr__state_place *place)
{
    return place->single ? "" : ".npy";
}

static tsr_status save_tensor(tsr__state_place *place, const char *file, const tsr_tensor *t)
{
    if (place->single)
        return tsr__state_place_add(place, file, t);
    char path[PATH_CAP];
    tsr_status st = join_path(place->path, file, path);
    if (st == TSR_OK)
        st = tsr_save_npy(path, t);
    if (st != TSR_OK)
        tsr__prefix_error("state_save");
    return st;
}

static tsr_status save_optimizer(FILE *f, tsr__state_place *place, const tsr_optimizer *opt)
{
    fprintf(f, "optimizer %s %zu\n", opt->name, opt->count);
    const void *options =
        opt->kind == TSR__OPTIM_SGD ? (const void *)&opt->sgd : (const void *)&opt->adam;
    for (const option_field *fd = kind_fields(opt->kind); fd->key; fd++) {
        const char *field = (const char *)options + fd->offset;
        if (fd->is_bool)
            fprintf(f, "option %s %d\n", fd->key, *(const bool *)field ? 1 : 0);
        else
            fprintf(f, "option %s %.17g\n", fd->key, *(const double *)field);
    }
    for (size_t i = 0; i < opt->count; i++) {
        fprintf(f, "step %zu %lld\n", i, (long long)opt->params[i].step);
        for (int s = 0; s < opt->num_state; s++) {
            const tsr_tensor *t = opt->params[i].state[s];
            if (!t)
                continue;
            char file[NAME_CAP];
            snprintf(file, sizeof file, "opt%zu_%s%s", i, opt->state_names[s],
                     file_suffix(place));
            tsr_status st = save_tensor(place, file, t);
            if (st != TSR_OK)
                return st;
            fprintf(f, "state %zu %s %s", i, opt->state_names[s], file);
            write_geometry(f, t);
        }
    }
    return TSR_OK;
}

/* Writes the tensors and the index (to a temporary name) into an open file. */
static tsr_status save_all(FILE *f, tsr__state_place *place, const tsr_tensor *const *params,
                           const char *const *names, size_t count, const tsr_optimizer *opt)
{
    fprintf(f, "%s\n", INDEX_MAGIC);
    for (size_t i = 0; i < count; i++) {
        char buf[NAME_CAP], file[NAME_CAP];
        snprintf(file, sizeof file, "param%zu%s", i, file_suffix(place));
        tsr_status st = save_tensor(place, file, params[i]);
        if (st != TSR_OK)
            return st;
        fprintf(f, "param %s %s", param_name(names, i, buf), file);
        write_geometry(f, params[i]);
    }
    tsr_status st = opt ? save_optimizer(f, place, opt) : TSR_OK;
    if (st == TSR_OK)
        fprintf(f, "end\n");
    return st;
}

/* The index into memory, then one file with it and every tensor. */
static tsr_status save_single(tsr__state_place *place, const tsr_tensor *const *params,
                              const char *const *names, size_t count, const tsr_optimizer *opt)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "state_save: out of memory");
    tsr_status st = save_all(f, place, params, names, count, opt);
    if (fclose(f) != 0 && st == TSR_OK)
        st = tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "state_save: out of memory");
    if (st == TSR_OK)
        st = tsr__state_place_write(place, text);
    free(text);
    return st;
}

tsr_status tsr_state_save(const char *dir, const tsr_tensor *const *params,
                          const char *const *names, size_t count, const tsr_optimizer *optimizer)
{
    if (!dir || (count > 0 && !params))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "state_save: dir and params must not be NULL");
    for (size_t i = 0; i < count; i++)
        if (!params[i])
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "state_save: params[%zu] is NULL", i);
    tsr_status st = check_names("state_save", names, count);
    if (st != TSR_OK)
        return st;
    tsr__state_place place;
    tsr__state_place_init(&place, dir);
    if (place.single) {
        st = save_single(&place, params, names, count, optimizer);
        tsr__state_place_free(&place);
        return st;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return tsr__set_error(TSR_ERR_IO, "state_save: cannot create directory \"%s\": %s", dir,
                              strerror(errno));
    char index_path[PATH_CAP], temp_path[PATH_CAP];
    st = join_path(dir, INDEX_NAME, index_path);
    if (st == TSR_OK)
        st = join_path(dir, "index.txt.partial", temp_path);
    if (st != TSR_OK)
        return st;
    FILE *f = fopen(temp_path, "w");
    if (!f)
        return tsr__set_error(TSR_ERR_IO, "state_save: cannot write \"%s\": %s", temp_path,
                              strerror(errno));
    st = save_all(f, &place, params, names, count, optimizer);
    bool write_failed = ferror(f) != 0;
    if (fclose(f) != 0 || write_failed) {
        if (st == TSR_OK)
            st = tsr__set_error(TSR_ERR_IO, "state_save: writing \"%s\" failed", temp_path);
    }
    if (st == TSR_OK && rename(temp_path, index_path) != 0)
        st = tsr__set_error(TSR_ERR_IO, "state_save: cannot rename \"%s\" to \"%s\": %s", temp_path,
                            index_path, strerror(errno));
    if (st != TSR_OK)
        remove(temp_path);
    return st;
}

/* ======================================================================== */
/* Reading the index                                                         */
/* ======================================================================== */

/* One tensor record: a parameter (name) or an optimiser state (index, key). */
typedef struct record {
    char name[NAME_CAP];
    size_t index;
    char file[NAME_CAP];
    tsr_dtype dtype;
    int ndim;
    int64_t shape[TSR_MAX_DIMS];
} record;

typedef struct state_index {
    record *params;
    size_t nparams;
    record *states;
    size_t nstates;
    bool has_optimizer;
    char kind[NAME_CAP];
    size_t opt_count;
    int64_t *steps; /* opt_count entries */
    tsr_sgd_options sgd;
    tsr_adam_options adam;
    bool ended;
} state_index;

static void state_index_free(state_index *ix)
{
    free(ix->params);
    free(ix->states);
    free(ix->steps);
}

static tsr_status bad_line(const char *path, int line, const char *why)
{
    return tsr__set_error(TSR_ERR_FORMAT, "state_load: %s:%d: %s", path, line, why);
}

/* Reads "FILE DTYPE NDIM D..." from the rest of a line into r. */
static bool parse_geometry(char *rest, record *r)
{
    char *save = NULL;
    char *file = strtok_r(rest, " \n", &save);
    char *dtype = strtok_r(NULL, " \n", &save);
    char *ndim = strtok_r(NULL, " \n", &save);
    if (!file || !dtype || !ndim || strlen(file) >= NAME_CAP || strchr(file, '/'))
        return false;
    strcpy(r->file, file);
    if (tsr_dtype_from_name(dtype, &r->dtype) != TSR_OK)
        return false;
    char *end = NULL;
    long n = strtol(ndim, &end, 10);
    if (*end || n < 0 || n > TSR_MAX_DIMS)
        return false;
    r->ndim = (int)n;
    for (int d = 0; d < r->ndim; d++) {
        char *tok = strtok_r(NULL, " \n", &save);
        if (!tok)
            return false;
        errno = 0;
        r->shape[d] = strtoll(tok, &end, 10); /* saturates: ERANGE */
        if (*end || end == tok || errno == ERANGE || r->shape[d] < 0)
            return false;
    }
    if (tsr__check_shape("state_load", r->file, r->ndim, r->shape, tsr_dtype_size(r->dtype),
                         NULL) != TSR_OK)
        return false;
    return strtok_r(NULL, " \n", &save) == NULL;
}

static bool append_record(record **list, size_t *n, record *r)
{
    record *grown = tsr__realloc(*list, (*n + 1) * sizeof *grown);
    if (!grown)
        return false;
    grown[(*n)++] = *r;
    *list = grown;
    return true;
}

/* Sets one option from "KEY VALUE" into the kind's options struct. */
static bool parse_option(state_index *ix, char *rest)
{
    char key[NAME_CAP], value[NAME_CAP];
    int used = 0;
    if (sscanf(rest, "%255s %255s%n", key, value, &used) != 2 || rest[used] != '\0')
        return false;
    bool sgd = strcmp(ix->kind, "sgd") == 0;
    const option_field *fd = sgd ? sgd_fields : adam_fields;
    char *options = sgd ? (char *)&ix->sgd : (char *)&ix->adam;
    for (; fd->key; fd++) {
        if (strcmp(fd->key, key) != 0)
            continue;
        char *end = NULL;
        double v = strtod(value, &end);
        if (*end)
            return false;
        if (fd->is_bool)
            *(bool *)(options + fd->offset) = v != 0;
        else
            *(double *)(options + fd->offset) = v;
        return true;
    }
    return false;
}

static tsr_status parse_optimizer_line(state_index *ix, char *rest, const char *path, int line)
{
    unsigned long long count;
    int used = 0;
    if (ix->has_optimizer || sscanf(rest, "%255s %llu%n", ix->kind, &count, &used) != 2 ||
        rest[used] != '\0' || rest[0] == '-')
        return bad_line(path, line, "malformed optimizer record");
    /* the params come first, and an optimiser holds only some of them: a
     * larger count is malformed, and is refused before it sizes anything */
    if (count > ix->nparams)
        return bad_line(path, line, "malformed optimizer record: more parameters than the "
                                    "index's param records");
    ix->has_optimizer = true;
    ix->opt_count = (size_t)count;
    ix->steps = tsr__calloc(ix->opt_count ? ix->opt_count : 1, sizeof *ix->steps);
    if (!ix->steps)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "state_load: out of memory");
    for (size_t i = 0; i < ix->opt_count; i++)
        ix->steps[i] = -1; /* no step record yet: a second one is refused */
    return TSR_OK;
}

/* One line of the index (without its newline). */
static tsr_status parse_line(state_index *ix, char *text, const char *path, int line)
{
    char *space = strchr(text, ' ');
    char *rest = space ? space + 1 : text + strlen(text);
    if (space)
        *space = '\0';
    record r = {0};
    if (strcmp(text, "param") == 0) {
        char *name_end = strchr(rest, ' ');
        if (!name_end || name_end - rest >= NAME_CAP || name_end == rest)
            return bad_line(path, line, "malformed param record");
        memcpy(r.name, rest, (size_t)(name_end - rest));
        if (!parse_geometry(name_end + 1, &r))
            return bad_line(path, line, "malformed param record");
        for (size_t i = 0; i < ix->nparams; i++) {
            if (strcmp(ix->params[i].name, r.name) == 0)
                return bad_line(path, line, "malformed param record: duplicate parameter name");
        }
        if (!append_record(&ix->params, &ix->nparams, &r))
            return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "state_load: out of memory");
        return TSR_OK;
    }
    if (strcmp(text, "optimizer") == 0)
        return parse_optimizer_line(ix, rest, path, line);
    if (strcmp(text, "option") == 0)
        return ix->has_optimizer && parse_option(ix, rest)
                   ? TSR_OK
                   : bad_line(path, line, "malformed or unknown option");
    if (strcmp(text, "step") == 0) {
        unsigned long long i;
        long long n;
        int used = 0;
        if (!ix->has_optimizer || sscanf(rest, "%llu %lld%n", &i, &n, &used) != 2 ||
            rest[used] != '\0' || rest[0] == '-' || i >= ix->opt_count || n < 0)
            return bad_line(path, line, "malformed step record");
        if (ix->steps[i] >= 0)
            return bad_line(path, line, "malformed step record: duplicate parameter index");
        ix->steps[i] = n;
        return TSR_OK;
    }
    if (strcmp(text, "state") == 0) {
        unsigned long long i;
        int used = 0;
        if (!ix->has_optimizer || sscanf(rest, "%llu %255s %n", &i, r.name, &used) != 2 ||
            i >= ix->opt_count || !parse_geometry(rest + used, &r))
            return bad_line(path, line, "malformed state record");
        r.index = (size_t)i;
        if (!append_record(&ix->states, &ix->nstates, &r))
            return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "state_load: out of memory");
        return TSR_OK;
    }
    if (strcmp(text, "end") == 0 && !space) {
        ix->ended = true;
        return TSR_OK;
    }
    return bad_line(path, line, "unknown record");
}

/* The index file of a directory, or the index text of a single file. */
static tsr_status open_index(tsr__state_place *place, char *path, char **text, FILE **out)
{
    if (place->single) {
        snprintf(path, PATH_CAP, "%s", place->path);
        tsr_status st = tsr__state_place_read(place, text);
        if (st == TSR_OK && !(*out = fmemopen(*text, strlen(*text), "r")))
            st = tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "state_load: out of memory");
        return st;
    }
    tsr_status st = join_path(place->path, INDEX_NAME, path);
    if (st != TSR_OK)
        return st;
    if (!(*out = fopen(path, "r")))
        return tsr__set_error(TSR_ERR_IO, "state_load: cannot open \"%s\": %s", path,
                              strerror(errno));
    return TSR_OK;
}

static tsr_status read_index(tsr__state_place *place, const tsr_optimizer *opt, state_index *ix)
{
    char path[PATH_CAP], text[LINE_CAP], *index_text = NULL;
    FILE *f = NULL;
    tsr_status st = open_index(place, path, &index_text, &f);
    if (st != TSR_OK) {
        free(index_text);
        return st;
    }
    /* Options not in the file keep the optimiser's current values. */
    if (opt) {
        ix->sgd = opt->sgd;
        ix->adam = opt->adam;
    }
    int line = 0;
    while (st == TSR_OK && fgets(text, sizeof text, f)) {
        line++;
        size_t len = strlen(text);
        if (len == 0 || text[len - 1] != '\n' || ix->ended) {
            st = bad_line(path, line, ix->ended ? "text after \"end\"" : "line too long or cut");
            break;
        }
        text[len - 1] = '\0';
        if (line == 1)
            st = strcmp(text, INDEX_MAGIC) == 0 ? TSR_OK
                                                : bad_line(path, line, "not a tessera state index");
        else
            st = parse_line(ix, text, path, line);
    }
    if (st == TSR_OK && ferror(f))
        st = tsr__set_error(TSR_ERR_IO, "state_load: reading \"%s\" failed", path);
    if (st == TSR_OK && !ix->ended)
        st = bad_line(path, line, "the index ends before its \"end\" record");
    fclose(f);
    free(index_text);
    return st;
}

/* ======================================================================== */
/* Loading                                                                   */
/* ======================================================================== */

static void format_shape(int ndim, const int64_t *shape, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "[");
    for (int d = 0; d < ndim && n < cap; d++)
        n += (size_t)snprintf(out + n, cap - n, d ? ", %lld" : "%lld", (long long)shape[d]);
    if (n < cap)
        snprintf(out + n, cap - n, "]");
}

static bool same_shape(int ndim, const int64_t *shape, const tsr_tensor *t)
{
    if (ndim != tsr_tensor_ndim(t))
        return false;
    for (int d = 0; d < ndim; d++)
        if (shape[d] != tsr_tensor_shape(t)[d])
            return false;
    return true;
}

/* Refuses a record whose dtype or shape differs from `target`'s. */
static tsr_status check_record(const record *r, const tsr_tensor *target, const char *what)
{
    char want[256], got[256];
    if (r->dtype != tsr_tensor_dtype(target))
        return tsr__set_error(TSR_ERR_DTYPE, "state_load: %s: the file holds %s, the tensor is %s",
                              what, tsr_dtype_name(r->dtype),
                              tsr_dtype_name(tsr_tensor_dtype(target)));
    if (!same_shape(r->ndim, r->shape, target)) {
        format_shape(r->ndim, r->shape, got, sizeof got);
        format_shape(tsr_tensor_ndim(target), tsr_tensor_shape(target), want, sizeof want);
        return tsr__set_error(TSR_ERR_SHAPE,
                              "state_load: %s: the file holds shape %s, the tensor has %s", what,
                              got, want);
    }
    return TSR_OK;
}

/* Reads a record's file onto `backend`, checking it against the index. */
static tsr_status load_record(const tsr__state_place *place, const record *r,
                              tsr_backend *backend, const char *what, tsr_tensor **out)
{
    char path[PATH_CAP];
    tsr_tensor *t = NULL;
    tsr_status st = TSR_OK;
    if (place->single) {
        snprintf(path, sizeof path, "%s: %s", place->path, r->file);
        const tsr_tensor *found = tsr__state_place_find(place, r->file);
        if (!found)
            return tsr__set_error(TSR_ERR_FORMAT, "state_load: %s: \"%s\" is not in the file",
                                  what, path);
        st = tsr_to_backend(found, backend, &t);
    } else {
        st = join_path(place->path, r->file, path);
    }
    if (st == TSR_OK && !place->single)
        st = tsr_load_npy_as(path, r->dtype, backend, &t);
    if (st != TSR_OK) {
        tsr__prefix_error("state_load: %s", what);
        return st;
    }
    if (tsr_tensor_dtype(t) != r->dtype || !same_shape(r->ndim, r->shape, t)) {
        tsr_tensor_release(t);
        return tsr__set_error(TSR_ERR_FORMAT,
                              "state_load: %s: \"%s\" does not hold the dtype and shape its "
                              "index record names",
                              what, path);
    }
    *out = t;
    return TSR_OK;
}

/* Stages every parameter's new value in staged[i]. */
static tsr_status stage_params(const tsr__state_place *dir, const state_index *ix,
                               tsr_tensor *const *params, const char *const *names, size_t count,
                               tsr_tensor **staged)
{
    for (size_t k = 0; k < ix->nparams; k++) {
        bool known = false;
        for (size_t i = 0; i < count && !known; i++) {
            char buf[NAME_CAP];
            known = strcmp(param_name(names, i, buf), ix->params[k].name) == 0;
        }
        if (!known)
            return tsr__set_error(TSR_ERR_VALUE,
                                  "state_load: unexpected parameter \"%s\" in "
                                  "the saved state",
                                  ix->params[k].name);
    }
    for (size_t i = 0; i < count; i++) {
        char buf[NAME_CAP], what[NAME_CAP + 32];
        const char *name = param_name(names, i, buf);
        snprintf(what, sizeof what, "parameter \"%s\"", name);
        const record *r = NULL;
        for (size_t k = 0; k < ix->nparams && !r; k++)
            if (strcmp(ix->params[k].name, name) == 0)
                r = &ix->params[k];
        if (!r)
            return tsr__set_error(TSR_ERR_VALUE, "state_load: %s is missing from the saved state",
                                  what);
        tsr_status st = check_record(r, params[i], what);
        if (st == TSR_OK)
            st = load_record(dir, r, tsr_tensor_backend(params[i]), what, &staged[i]);
        if (st != TSR_OK)
            return st;
    }
    return TSR_OK;
}

/* Checks the optimiser section against `opt` and stages its state tensors
 * in staged[i * TSR__OPTIM_MAX_STATE + slot]. */
static tsr_status stage_optimizer(const tsr__state_place *dir, const state_index *ix, const tsr_optimizer *opt,
                                  tsr_tensor **staged)
{
    if (!ix->has_optimizer)
        return tsr__set_error(TSR_ERR_VALUE, "state_load: the saved state has no optimizer");
    if (strcmp(ix->kind, opt->name) != 0)
        return tsr__set_error(TSR_ERR_VALUE, "state_load: the saved optimizer is %s, not %s",
                              ix->kind, opt->name);
    if (ix->opt_count != opt->count)
        return tsr__set_error(TSR_ERR_VALUE,
                              "state_load: the saved optimizer has %zu parameters, this one %zu",
                              ix->opt_count, opt->count);
    tsr_status st = opt->kind == TSR__OPTIM_SGD ? tsr__sgd_options_check(&ix->sgd)
                                                : tsr__adam_options_check(&ix->adam);
    if (st != TSR_OK) {
        tsr__prefix_error("state_load: saved options");
        return st;
    }
    for (size_t k = 0; k < ix->nstates && st == TSR_OK; k++) {
        const record *r = &ix->states[k];
        char what[NAME_CAP + 64];
        snprintf(what, sizeof what, "%s state \"%s\" of parameter %zu", opt->name, r->name,
                 r->index);
        int slot = tsr__optimizer_state_slot(opt, r->name);
        tsr_tensor **dst = &staged[r->index * TSR__OPTIM_MAX_STATE + (slot < 0 ? 0 : slot)];
        const tsr_tensor *param = opt->params[r->index].param;
        if (slot < 0 || *dst)
            st = tsr__set_error(TSR_ERR_FORMAT, "state_load: %s is unknown or given twice", what);
        if (st == TSR_OK)
            st = check_record(r, param, what);
        if (st == TSR_OK)
            st = load_record(dir, r, tsr_tensor_backend(param), what, dst);
    }
    return st;
}

/* Writes what was staged; nothing here can fail for a reason the checks
 * did not already rule out, except the backend itself. */
static tsr_status commit(tsr_tensor *const *params, size_t count, tsr_tensor **staged,
                         const state_index *ix, tsr_optimizer *opt, tsr_tensor **staged_state)
{
    bool prev = tsr_grad_mode_set(false);
    tsr_status st = TSR_OK;
    for (size_t i = 0; i < count && st == TSR_OK; i++)
        st = tsr_copy_(params[i], staged[i]);
    tsr_grad_mode_set(prev);
    if (st != TSR_OK || !opt)
        return st;
    if (opt->kind == TSR__OPTIM_SGD)
        opt->sgd = ix->sgd;
    else
        opt->adam = ix->adam;
    for (size_t i = 0; i < opt->count; i++) {
        opt->params[i].step = ix->steps[i] < 0 ? 0 : ix->steps[i];
        for (int s = 0; s < TSR__OPTIM_MAX_STATE; s++) {
            tsr_tensor **src = &staged_state[i * TSR__OPTIM_MAX_STATE + s];
            tsr_tensor_release(opt->params[i].state[s]);
            opt->params[i].state[s] = *src;
            *src = NULL;
        }
    }
    return TSR_OK;
}

tsr_status tsr_state_load(const char *dir, tsr_tensor *const *params, const char *const *names,
                          size_t count, tsr_optimizer *optimizer)
{
    if (!dir || (count > 0 && !params))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "state_load: dir and params must not be NULL");
    for (size_t i = 0; i < count; i++)
        if (!params[i])
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "state_load: params[%zu] is NULL", i);
    tsr_status st = check_names("state_load", names, count);
    if (st != TSR_OK)
        return st;
    state_index ix = {0};
    size_t nstate = optimizer ? optimizer->count * TSR__OPTIM_MAX_STATE : 0;
    tsr_tensor **staged = tsr__calloc(count + nstate + 1, sizeof *staged);
    if (!staged)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "state_load: out of memory");
    tsr__state_place place;
    tsr__state_place_init(&place, dir);
    st = read_index(&place, optimizer, &ix);
    if (st == TSR_OK)
        st = stage_params(&place, &ix, params, names, count, staged);
    if (st == TSR_OK && optimizer)
        st = stage_optimizer(&place, &ix, optimizer, staged + count);
    if (st == TSR_OK)
        st = commit(params, count, staged, &ix, optimizer, staged + count);
    for (size_t i = 0; i < count + nstate; i++)
        tsr_tensor_release(staged[i]);
    free(staged);
    state_index_free(&ix);
    tsr__state_place_free(&place);
    return st;
}
